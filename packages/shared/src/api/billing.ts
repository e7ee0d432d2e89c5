import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { planPricingSchema } from './accounts.js';
import { moneySchema } from './money.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';
import { paymentSourceSchema } from './paymentSource.js';

export { paymentSourceSchema, type PaymentSource } from './paymentSource.js';

export const NO_PAYMENT_SETUP = 'No Payment Setup';

export const paymentSourceResultSchema = recordResponse(
  z.object({ paymentSource: paymentSourceSchema.nullable(), provider: z.enum(['sandbox', 'stripe']) }),
).meta({ id: 'PaymentSourceResult' });

/** POST or PUT .../paymentsource: the token the card form made (a Stripe PaymentMethod, a sandbox card token). */
export const setPaymentSourceSchema = z
  .object({ tokenId: z.string({ message: validationMessages.required }).trim().min(1, { message: validationMessages.required }).max(255) })
  .meta({ id: 'SetPaymentSource' });

export type SetPaymentSource = z.infer<typeof setPaymentSourceSchema>;

/** processing: the card is saved once the provider confirms; requiresAction: authenticate with clientSecret. */
export const paymentSourceSetupSchema = recordResponse(
  z.object({
    status: z.enum(['processing', 'requiresAction', 'failed']),
    clientSecret: z.string().nullable(),
    error: z.string().nullable(),
  }),
).meta({ id: 'PaymentSourceSetup' });

/** The sandbox's card form (POST /v1/billing/sandbox/cards): a test card becomes a token. */
export const sandboxCardSchema = z
  .object({
    number: z.string().trim().min(12, { message: 'Invalid card number' }).max(23),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(2200),
    cvc: z.string().regex(/^\d{3,4}$/, { message: 'Invalid CVC' }),
  })
  .meta({ id: 'SandboxCard' });

export const sandboxCardTokenSchema = recordResponse(z.object({ tokenId: z.string() })).meta({ id: 'SandboxCardToken' });

/** The sandbox's authentication page (3-D Secure): approve or refuse what waits on clientSecret. */
export const sandboxAuthenticationSchema = z
  .object({ clientSecret: z.string().min(1).max(300), approve: z.boolean() })
  .meta({ id: 'SandboxAuthentication' });

/** Plan support level: Premium from a monthly price of 90 USD (spec constants). */
export const PREMIUM_SUPPORT_FROM = '90.0000';

export const catalogPlanSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** Monthly charge, USD. */
    price: moneySchema,
    pricing: planPricingSchema,
    supportLevel: z.enum(['Premium', 'Standard']),
    /** Segments the monthly price buys in the account's default country (price / rate per segment). */
    includedSegments: z.object({ country: z.string(), sms: z.number().int(), mms: z.number().int().nullable() }),
    /** The largest plan: larger volumes are arranged with sales (Contact Us). */
    contactUs: z.boolean(),
    current: z.boolean(),
  })
  .meta({ id: 'CatalogPlan' });

export type CatalogPlan = z.infer<typeof catalogPlanSchema>;

/** The plan pricing dialog pages by 10, 20 or 50; the API answers 20 by default. */
export const planListQuerySchema = listQuerySchema.extend({ limit: listQuerySchema.shape.limit.default(20) });
export const planListSchema = listResponse(catalogPlanSchema).meta({ id: 'PlanList' });

export const SEGMENT_UNDERSTANDING_MESSAGE = 'Confirm that you understand billing is per message segment';

/** PUT .../plan: the plan chosen and when the segment explanation was confirmed. */
export const changePlanSchema = z
  .object({
    id: z.string({ message: validationMessages.required }).min(1, { message: validationMessages.required }),
    segmentUnderstanding: z.iso.datetime({ message: SEGMENT_UNDERSTANDING_MESSAGE }),
  })
  .meta({ id: 'ChangePlan' });

export type ChangePlan = z.infer<typeof changePlanSchema>;

/** The spec's answer to a plan change: status and, for an authentication, action.client_secret. */
export const changePlanResultSchema = recordResponse(
  z.object({
    status: z.enum(['processing', 'requiresAction', 'failed']),
    action: z.object({ client_secret: z.string() }).nullable(),
    error: z.string().nullable(),
    message: z.string(),
  }),
).meta({ id: 'ChangePlanResult' });

export const PLAN_CHANGE_PROCESSING_MESSAGE = 'Your request is being processed.';

/**
 * 402 `trial_expired`: the trial plan ran out (created + 15 days). Sends and other charges are refused until a
 * plan is chosen; reading and exporting still work (docs/billing.md).
 */
export const TRIAL_EXPIRED_MESSAGE =
  'Your trial has expired. Choose a plan to send messages and use chargeable features again; your data can still be viewed and exported.';

/**
 * GET .../plan: the account's plan and its subscription at the provider, if it has one. The Plan tab shows the
 * next bill date from `activeUntil`; `planId` differs from the plan's id while a change awaits the provider.
 */
export const accountPlanStatusSchema = recordResponse(
  z.object({
    plan: z.object({ id: z.string(), name: z.string(), price: moneySchema, isTrial: z.boolean() }),
    subscription: z
      .object({ status: z.string(), planId: z.string().nullable(), activeUntil: z.iso.datetime().nullable() })
      .nullable(),
  }),
).meta({ id: 'AccountPlanStatus' });

export type AccountPlanStatus = z.infer<typeof accountPlanStatusSchema>['data'];

export const invoiceSchema = z
  .object({
    id: z.uuid(),
    date: z.iso.datetime(),
    description: z.string(),
    lines: z.array(z.object({ id: z.string(), description: z.string(), amount: moneySchema })),
    total: moneySchema,
    status: z.string(),
    error: z.string().nullable(),
    /** Stripe's PDF, or this server's for the sandbox (GET .../invoices/{id}/pdf). */
    invoicePdf: z.string(),
    receipt: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });

export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListQuerySchema = listQuerySchema.extend({ limit: listQuerySchema.shape.limit.default(50) });
export const invoiceListSchema = listResponse(invoiceSchema).meta({ id: 'InvoiceList' });

/** Auto top-up 'below' options, USD (spec constants). */
export const AUTO_TOPUP_BELOW_OPTIONS = [0, 10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000] as const;
/** Auto top-up 'top up by' options, USD. */
export const AUTO_TOPUP_AMOUNT_OPTIONS = [10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000] as const;
/** At most this many auto top-ups an account in 24 hours. */
export const AUTO_TOPUP_DAILY_LIMIT = 5;

export const AUTO_TOPUP_OPTION_MESSAGE = 'Choose one of the listed amounts';

/**
 * One of `options`, as a number (20) or a decimal string ('20', '20.00'), answered as money ('20.0000').
 * Read from its digits, not coerced: an empty string or null would coerce to 0, itself a 'below' option.
 */
const optionOf = (options: readonly number[]) =>
  z
    .union([z.number(), z.string().trim()], {
      error: (issue) => (issue.input === undefined ? validationMessages.required : validationMessages.number),
    })
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? String(value) : value;
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: validationMessages.required });
        return z.NEVER;
      }
      const match = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(text);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: validationMessages.number });
        return z.NEVER;
      }
      const whole = Number(match[1]);
      if (/[1-9]/.test(match[2] ?? '') || !options.includes(whole)) {
        ctx.addIssue({ code: 'custom', message: AUTO_TOPUP_OPTION_MESSAGE });
        return z.NEVER;
      }
      return `${String(whole)}.0000`;
    });

/** POST or PUT .../autotopup (DELETE removes it). */
export const autoTopupSchema = z
  .object({
    below: optionOf(AUTO_TOPUP_BELOW_OPTIONS),
    amount: optionOf(AUTO_TOPUP_AMOUNT_OPTIONS),
  })
  .meta({ id: 'AutoTopup' });

export type AutoTopup = z.output<typeof autoTopupSchema>;

export const autoTopupResultSchema = recordResponse(
  z.object({ autotopup: z.object({ below: moneySchema, amount: moneySchema }).nullable(), stopped: z.boolean() }),
).meta({ id: 'AutoTopupResult' });
