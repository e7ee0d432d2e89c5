import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import { countryCode, messageFrequencyUnits } from '../accounts.js';
import { emailAddress, httpUrl, requiredText } from '../forms.js';
import { roleSchema } from '../permissions.js';
import { TIME_OF_DAY_PATTERN } from '../quietHours.js';
import { validationMessages } from '../validation.js';
import { moneySchema } from './money.js';
import { listResponse, recordResponse } from './pagination.js';
import { paymentSourceSchema } from './paymentSource.js';

/** 'Must be a number', plus the bounds of the default message frequency. */
export const MESSAGE_FREQUENCY_MAX = 1000;

export const messageFrequencySchema = z
  .object({
    quantity: z
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(1, { message: 'Minimum value is 1' })
      .max(MESSAGE_FREQUENCY_MAX, { message: `Maximum value is ${MESSAGE_FREQUENCY_MAX}` }),
    frequency: z.enum(messageFrequencyUnits, { message: validationMessages.required }),
  })
  .meta({ id: 'MessageFrequency' });

export type MessageFrequency = z.infer<typeof messageFrequencySchema>;

/** The support phone is checked for the account's country and kept as typed. */
export function isValidSupportPhone(phone: string, country: string): boolean {
  return parsePhoneNumberFromString(phone, country as CountryCode)?.isValid() === true;
}

export const accountSupportInputSchema = z.object({
  address: requiredText(300),
  phone: requiredText(40),
  email: emailAddress,
  website: z
    .union([z.literal(''), httpUrl])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

export const TIME_OF_DAY_MESSAGE = 'Use HH:MM, from 00:00 to 23:59';
export const QUIET_HOURS_SAME_MESSAGE = 'The start and the end must differ';

const timeOfDay = z
  .string({ message: validationMessages.required })
  .trim()
  .regex(TIME_OF_DAY_PATTERN, { message: TIME_OF_DAY_MESSAGE });

/**
 * Acceptable hours in the recipient's local time: messages queued outside them wait for the next `start`.
 * `start` after `end` spans midnight. Off: messages go at once and carry no time zone.
 */
export const quietHoursSchema = z
  .object({ enabled: z.boolean(), start: z.string(), end: z.string() })
  .meta({ id: 'QuietHours' });

export type QuietHours = z.infer<typeof quietHoursSchema>;

export const quietHoursInputSchema = z
  .object({ enabled: z.boolean({ message: 'Use true or false' }), start: timeOfDay, end: timeOfDay })
  .refine((value) => value.start !== value.end, { message: QUIET_HOURS_SAME_MESSAGE, path: ['end'] });

/** PUT /v1/accounts/{acc}: each part is optional; a part that is sent replaces what was there. */
export const updateAccountSchema = z
  .object({
    name: requiredText(120).optional(),
    defaults: z
      .object({
        country: countryCode.optional(),
        messageFrequency: messageFrequencySchema.nullable().optional(),
      })
      .optional(),
    support: accountSupportInputSchema.optional(),
    quietHours: quietHoursInputSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const country = value.defaults?.country;
    if (value.support !== undefined && country !== undefined && !isValidSupportPhone(value.support.phone, country)) {
      ctx.addIssue({ code: 'custom', message: validationMessages.phoneInvalid, path: ['support', 'phone'] });
    }
  })
  .meta({ id: 'UpdateAccount' });

export type UpdateAccount = z.output<typeof updateAccountSchema>;

export const AUTO_LINK_DOMAIN_MESSAGE = 'Choose the short domain or one of your verified custom domains';

/**
 * autoLinkShorten: the domain (the deployment's short domain or a verified custom domain of the account) that
 * URLs in outgoing messages are shortened on; null: off ('-- Disabled --').
 */
export const accountOptionsSchema = z
  .object({
    verifyNumberType: z.boolean(),
    universalMMS: z.boolean(),
    contactTracking: z.boolean(),
    autoLinkShorten: z.uuid({ message: AUTO_LINK_DOMAIN_MESSAGE }).nullable(),
  })
  .meta({ id: 'AccountOptions' });

export type AccountOptions = z.infer<typeof accountOptionsSchema>;

/** The auto top-up rule in the account record's options; stopped: a declined card stopped it (docs/billing.md). */
export const accountAutoTopupSchema = z
  .object({ below: moneySchema, amount: moneySchema, stopped: z.boolean() })
  .meta({ id: 'AccountAutoTopup' });

/** The plan's subscription at the payment provider; activeUntil: the end of the period paid for (next bill date). */
export const accountSubscriptionSchema = z
  .object({ planId: z.string().nullable(), status: z.string().nullable(), activeUntil: z.iso.datetime().nullable() })
  .meta({ id: 'AccountSubscription' });

/** The billing fields of the account record, for those who may see billing (`billing.view`). */
export interface AccountBilling {
  paymentSource: z.infer<typeof paymentSourceSchema> | null;
  subscription: z.infer<typeof accountSubscriptionSchema> | null;
  autotopup: z.infer<typeof accountAutoTopupSchema> | null;
}

/** PUT /v1/accounts/{acc}/options: the options sent are merged into the account's. */
export const updateAccountOptionsSchema = accountOptionsSchema.partial().meta({ id: 'UpdateAccountOptions' });

export type UpdateAccountOptions = z.infer<typeof updateAccountOptionsSchema>;

/** POST /v1/accounts/{acc}/close (feedback required). */
export const closeAccountSchema = z.object({ feedback: requiredText(2000) }).meta({ id: 'CloseAccount' });

export type CloseAccount = z.output<typeof closeAccountSchema>;

const segmentPrice = z.object({ outbound: moneySchema });

/** Prices per segment by country code, and `DEFAULT` for countries without their own. */
export const planPricingSchema = z
  .record(z.string(), z.object({ sms: segmentPrice, mms: segmentPrice.optional() }))
  .meta({ id: 'PlanPricing' });

export type PlanPricing = z.infer<typeof planPricingSchema>;

export const planSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** Monthly charge, USD. */
    price: moneySchema,
    isTrial: z.boolean(),
    pricing: planPricingSchema,
    /** Days a conversation stays open without messages; null when it never lapses. */
    maxConversationPeriod: z.number().int().nullable(),
  })
  .meta({ id: 'Plan' });

export type Plan = z.infer<typeof planSchema>;

export const accountSupportSchema = z.object({
  address: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
  website: z.string().optional(),
});

export const questionnaireSchema = z.object({
  messagingVolume: z.string().optional(),
  messagingType: z.array(z.string()).default([]),
  desiredIntegrations: z.array(z.string()).default([]),
  accountUseCases: z.string().optional(),
});

export const accountSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    balance: moneySchema,
    plan: planSchema,
    created: z.object({ at: z.iso.datetime() }),
    defaults: z.object({
      country: z.object({ code: z.string(), name: z.string() }),
      messageFrequency: messageFrequencySchema.nullable(),
    }),
    /** autotopup: only for `billing.view`; null when auto top-up is off. */
    options: accountOptionsSchema.extend({ autotopup: accountAutoTopupSchema.nullable().optional() }).meta({ id: 'AccountRecordOptions' }),
    quietHours: quietHoursSchema,
    support: accountSupportSchema,
    questionnaire: questionnaireSchema,
    promoCode: z.string().nullable(),
    user: z.object({ role: roleSchema }),
    /**
     * Only on a trial plan: whole days left (created + 15 days − now), whether it has run out (sends and other
     * charges are refused with 402 `trial_expired`) and when it ends.
     */
    trial: z.object({ daysLeft: z.number().int(), expired: z.boolean(), endsAt: z.iso.datetime() }).optional(),
    /** The card on file, or null ('No Payment Setup'); only for `billing.view`. */
    paymentSource: paymentSourceSchema.nullable().optional(),
    /** The plan's subscription, or null when the account has none; only for `billing.view`. */
    subscription: accountSubscriptionSchema.nullable().optional(),
  })
  .meta({ id: 'Account' });

export type Account = z.infer<typeof accountSchema>;

/** A row of the account chooser. */
export const accountSummarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    plan: z.object({ id: z.string(), name: z.string(), isTrial: z.boolean() }),
    created: z.object({ at: z.iso.datetime() }),
    user: z.object({ role: roleSchema }),
  })
  .meta({ id: 'AccountSummary' });

export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const accountListResponseSchema = listResponse(accountSummarySchema);
export const accountResponseSchema = recordResponse(accountSchema);

/** Outbox event payloads of the account lifecycle. */
export interface AccountCreatedEventData {
  accountId: string;
  name: string;
  planId: string;
}

export interface AccountClosedEventData {
  accountId: string;
  /** The user id, or the API client id, that closed it. */
  closedBy: string;
}
