import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { moneySchema } from './money.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/**
 * The account's ledger as the billing screens show it (GET /v1/accounts/{acc}/charges), newest first:
 * credits (trial credit, top-ups), debits (messages, number-type checks) and refunds.
 */
export const chargeSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['credit', 'debit', 'refund']),
    /** Always positive; `kind` says which way it moved the balance. */
    amount: moneySchema,
    balanceAfter: moneySchema,
    description: z.string(),
    created: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Charge' });

export type Charge = z.infer<typeof chargeSchema>;

export const chargeListQuerySchema = listQuerySchema;
export const chargeListSchema = listResponse(chargeSchema).meta({ id: 'ChargeList' });

/** The refusal of a charge the balance cannot cover (the campaign banner and the send dialog say it). */
export const INSUFFICIENT_CREDIT_MESSAGE = 'Insufficient Credit';

/** The top-up amount is 10 to 1,000 USD in steps of 10, 10 by default. */
export const TOPUP_MIN = 10;
export const TOPUP_MAX = 1000;
export const TOPUP_STEP = 10;
export const TOPUP_DEFAULT = 10;
export const TOPUP_STEP_MESSAGE = `Top-ups go in steps of ${TOPUP_STEP}`;

/** An amount as a number (20) or a decimal string ('20', '20.00'); whole steps of 10 only. */
const topupAmount = z
  .union([z.number({ message: validationMessages.number }), z.string({ message: validationMessages.number }).trim()], {
    message: validationMessages.number,
  })
  .transform((value) => (typeof value === 'number' ? String(value) : value))
  .superRefine((value, ctx) => {
    // Read as whole dollars and a fraction: no binary float decides a bound.
    const match = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(value);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: validationMessages.number });
      return;
    }
    const whole = Number(match[1]);
    const fraction = /[1-9]/.test(match[2] ?? '');
    if (whole < TOPUP_MIN) ctx.addIssue({ code: 'custom', message: `Minimum value is ${String(TOPUP_MIN)}` });
    else if (whole > TOPUP_MAX || (whole === TOPUP_MAX && fraction)) {
      ctx.addIssue({ code: 'custom', message: `Maximum value is ${String(TOPUP_MAX)}` });
    } else if (fraction || whole % TOPUP_STEP !== 0) ctx.addIssue({ code: 'custom', message: TOPUP_STEP_MESSAGE });
  });

/** POST or PUT /v1/accounts/{acc}/topup. An `Idempotency-Key` header makes a retry credit once. */
export const topupSchema = z.object({ amount: topupAmount }).meta({ id: 'Topup' });

export type TopupInput = z.input<typeof topupSchema>;
export type Topup = z.output<typeof topupSchema>;

/** A payment asked of the payment provider (a top-up, an auto top-up), as it stands. */
export const paymentSchema = z
  .object({
    id: z.uuid(),
    purpose: z.enum(['topup', 'autoTopup']),
    /** processing until the provider confirms; requiresAction: the card holder must authenticate (clientSecret). */
    status: z.enum(['processing', 'requiresAction', 'succeeded', 'failed']),
    amount: moneySchema,
    error: z.string().nullable(),
    created: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Payment' });

export type Payment = z.infer<typeof paymentSchema>;

/** The notice the top-up dialog closes with (spec: the payment is processing). */
export const TOPUP_PROCESSING_MESSAGE = 'Your payment is processing: the balance updates once it is confirmed.';

export const topupResultSchema = recordResponse(
  z.object({
    payment: paymentSchema,
    /** The provider's secret for the card holder's authentication (status requiresAction), else null. */
    clientSecret: z.string().nullable(),
    /** The balance now: it moves when the provider confirms the payment. */
    balance: moneySchema,
    /** True when the Idempotency-Key had been used: this is the first request's payment. */
    duplicate: z.boolean(),
  }),
).meta({ id: 'TopupResult' });

export type TopupResult = z.infer<typeof topupResultSchema>;
