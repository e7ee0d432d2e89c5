import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { countryCode } from '../accounts.js';
import { emailAddress, requiredText } from '../forms.js';
import { checkMobile, type PhoneCheck } from '../phone.js';
import { validationMessages } from '../validation.js';
import { listResponse, recordResponse } from './pagination.js';

/**
 * Phone numbers (docs/decisions.md, Phone numbers): the numbers an account sends from. A number
 * is bought from the carrier's inventory (active at once) or hosted (the business's own number, added with
 * a letter of authorisation, unverified until a call to it reads out a 6-digit code).
 */

export const phoneNumberStatuses = ['active', 'unverified', 'pending', 'suspended', 'released'] as const;
export type PhoneNumberStatus = (typeof phoneNumberStatuses)[number];

export const phoneNumberTypes = ['longcode', 'tollfree', 'shortcode', 'senderid'] as const;
export type PhoneNumberType = (typeof phoneNumberTypes)[number];

export const phoneNumberCarriers = ['simulator', 'smpp', 'twilio'] as const;

/** The status is shown capitalised. */
export const phoneNumberStatusLabels: Record<PhoneNumberStatus, string> = {
  active: 'Active',
  unverified: 'Unverified',
  pending: 'Pending',
  suspended: 'Suspended',
  released: 'Released',
};

export const phoneNumberTypeLabels: Record<PhoneNumberType, string> = {
  longcode: 'Long Code',
  tollfree: 'Toll Free',
  shortcode: 'Short Code',
  senderid: 'Sender ID',
};

export const phoneNumberSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** E.164, or the alphanumeric sender id. */
    number: z.string(),
    status: z.enum(phoneNumberStatuses),
    country: z.string(),
    /** The countries the number is known to reach. */
    supportedDestinations: z.array(z.string()),
    /** The business's own number, hosted with us (added with a letter of authorisation). */
    hosted: z.boolean(),
    verified: z.boolean(),
    type: z.enum(phoneNumberTypes),
    /** Where inbound messages are forwarded as well (E.164), or null. */
    forwardTo: z.string().nullable(),
    universalReply: z.boolean(),
    carrier: z.enum(phoneNumberCarriers),
    messagesPerSecond: z.number().int(),
    created: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'PhoneNumber' });

export type PhoneNumber = z.infer<typeof phoneNumberSchema>;

export const phoneNumberListSchema = listResponse(phoneNumberSchema);
export const phoneNumberRecordSchema = recordResponse(phoneNumberSchema);

/** Selects fetch numbers in one call; a page holds up to 500. */
export const PHONE_NUMBER_LIST_MAX_LIMIT = 500;
export const PHONE_NUMBER_FETCH_LIMIT = 100;

const pageNumber = z.coerce.number({ message: validationMessages.number }).int({ message: validationMessages.number });

/**
 * GET /v1/accounts/{acc}/phonenumbers. `admin` is accepted as the product sends it; every user of the account
 * sees all its numbers either way. Released numbers are left out.
 */
export const phoneNumberListQuerySchema = z.object({
  limit: pageNumber
    .min(1, { message: 'Minimum value is 1' })
    .max(PHONE_NUMBER_LIST_MAX_LIMIT, { message: `Maximum value is ${PHONE_NUMBER_LIST_MAX_LIMIT}` })
    .default(10),
  offset: pageNumber.min(0, { message: 'Minimum value is 0' }).default(0),
  admin: z.enum(['true', 'false', '1', '0']).optional(),
});

// ---------------------------------------------------------------------------------------------------
// Buying

export const AVAILABLE_NUMBERS_MAX_LIMIT = 100;
export const AVAILABLE_NUMBERS_DEFAULT_LIMIT = 20;

/** GET /v1/accounts/{acc}/phonenumbers/available: the default carrier's numbers for sale in a country. */
export const availableNumbersQuerySchema = z.object({
  /** Omitted: the account's default country. */
  country: countryCode.optional(),
  limit: pageNumber
    .min(1, { message: 'Minimum value is 1' })
    .max(AVAILABLE_NUMBERS_MAX_LIMIT, { message: `Maximum value is ${AVAILABLE_NUMBERS_MAX_LIMIT}` })
    .default(AVAILABLE_NUMBERS_DEFAULT_LIMIT),
});

export const availableNumberSchema = z
  .object({
    number: z.string(),
    country: z.string(),
    capabilities: z.object({ sms: z.boolean(), mms: z.boolean() }),
  })
  .meta({ id: 'AvailablePhoneNumber' });

export type AvailableNumber = z.infer<typeof availableNumberSchema>;

export const availableNumberListSchema = z.object({ data: z.array(availableNumberSchema) });

/** A number written internationally (+ and the country code), normalised to E.164. */
export function checkE164(value: string): PhoneCheck {
  const given = value.trim();
  if (given === '') return { ok: false, message: validationMessages.phoneNumberMissing };
  const parsed = parsePhoneNumberFromString(given);
  if (!parsed?.isValid() || parsed.country === undefined) return { ok: false, message: validationMessages.phoneInvalid };
  return { ok: true, e164: parsed.number, country: parsed.country };
}

const e164Number = z.string({ message: validationMessages.phoneNumberMissing }).transform((value, ctx) => {
  const result = checkE164(value);
  if (!result.ok) {
    ctx.addIssue({ code: 'custom', message: result.message });
    return z.NEVER;
  }
  return result.e164;
});

export const PHONE_NUMBER_NAME_MAX = 100;

const numberName = z.string().trim().max(PHONE_NUMBER_NAME_MAX, { message: `At most ${PHONE_NUMBER_NAME_MAX} characters` });

/** POST /v1/accounts/{acc}/phonenumbers: buys one of the available numbers. */
export const buyPhoneNumberSchema = z
  .object({
    number: e164Number,
    name: numberName.optional(),
  })
  .meta({ id: 'BuyPhoneNumber' });

export type BuyPhoneNumberInput = z.input<typeof buyPhoneNumberSchema>;
export type BuyPhoneNumber = z.output<typeof buyPhoneNumberSchema>;

// ---------------------------------------------------------------------------------------------------
// Adding a number of an SMPP connection (no inventory, no voice: the number is vouched for, not bought)

/** Messages a second a number added by hand may be given: what an SMPP contract may state. */
export const PHONE_NUMBER_RATE_MAX = 1000;

/**
 * POST /v1/accounts/{acc}/carriers/{id}/phonenumbers (an administrator, for the account's own SMPP
 * connection) and `parley add-number` (the operator, also for the deployment's SMPP_URL): a number the
 * carrier has provisioned for the business, active at once. `messagesPerSecond` is the rate the
 * connection's contract allows for it; by default 1.
 */
export const addConnectionPhoneNumberSchema = z
  .object({
    number: e164Number,
    name: numberName.optional(),
    messagesPerSecond: z
      .number({ message: validationMessages.number })
      .int({ message: 'Messages per second must be a whole number' })
      .min(1, { message: `Messages per second must be between 1 and ${String(PHONE_NUMBER_RATE_MAX)}` })
      .max(PHONE_NUMBER_RATE_MAX, { message: `Messages per second must be between 1 and ${String(PHONE_NUMBER_RATE_MAX)}` })
      .optional(),
  })
  .meta({ id: 'AddConnectionPhoneNumber' });

export type AddConnectionPhoneNumberInput = z.input<typeof addConnectionPhoneNumberSchema>;
export type AddConnectionPhoneNumber = z.output<typeof addConnectionPhoneNumberSchema>;

// ---------------------------------------------------------------------------------------------------
// Hosting (the add-number LOA form)

/** One hosted number: its country and the number as typed, normalised to E.164 for that country. */
export const hostedNumberSchema = z.object({ country: z.string(), number: z.string() }).transform((value, ctx) => {
  const result = checkMobile(value);
  if (!result.ok) {
    ctx.addIssue({ code: 'custom', message: result.message, path: ['number'] });
    return z.NEVER;
  }
  return { country: result.country, number: result.e164 };
});

export const HOSTED_NUMBERS_MAX = 20;

/**
 * POST /v1/accounts/{acc}/phonenumbers/hosted: the letter of authorisation (every field required).
 * A number given twice is kept once.
 */
export const hostedPhoneNumbersSchema = z
  .object({
    businessName: requiredText(200),
    phoneNumberProvider: requiredText(200),
    numbers: z
      .array(hostedNumberSchema, { message: validationMessages.required })
      .min(1, { message: validationMessages.required })
      .max(HOSTED_NUMBERS_MAX, { message: `At most ${HOSTED_NUMBERS_MAX} numbers at a time` })
      .transform((numbers) => [...new Map(numbers.map((n) => [n.number, n])).values()]),
    authorizingPerson: requiredText(200),
    email: emailAddress,
    address: requiredText(300),
    city: requiredText(100),
    state: requiredText(100),
    postalCode: requiredText(20),
  })
  .meta({ id: 'HostedPhoneNumbers' });

export type HostedPhoneNumbersInput = z.input<typeof hostedPhoneNumbersSchema>;
export type HostedPhoneNumbers = z.output<typeof hostedPhoneNumbersSchema>;

export const hostedPhoneNumberListSchema = z.object({ data: z.array(phoneNumberSchema) });

// ---------------------------------------------------------------------------------------------------
// Verification by call

export const VERIFICATION_CODE_LENGTH = 6;
/** A verification call may be asked for once a minute per number. */
export const VERIFICATION_CALL_INTERVAL_SECONDS = 60;
/** The code a call reads out is good for 10 minutes. */
export const VERIFICATION_CODE_TTL_SECONDS = 600;
/** Wrong codes allowed per call; then a new call is needed. */
export const VERIFICATION_MAX_ATTEMPTS = 5;

export const VERIFICATION_CODE_MESSAGE = 'Enter the 6-digit code';

/** POST /v1/accounts/{acc}/phonenumbers/{id}/verify */
export const verifyPhoneNumberSchema = z
  .object({
    code: z
      .string({ message: validationMessages.required })
      .trim()
      .min(1, { message: validationMessages.required })
      .regex(/^\d{6}$/, { message: VERIFICATION_CODE_MESSAGE }),
  })
  .meta({ id: 'VerifyPhoneNumber' });

export type VerifyPhoneNumberInput = z.input<typeof verifyPhoneNumberSchema>;
export type VerifyPhoneNumber = z.output<typeof verifyPhoneNumberSchema>;

/** GET /v1/accounts/{acc}/phonenumbers/{id}/verify answers when the code expires. */
export const verificationCallSchema = z
  .object({ data: z.object({ id: z.uuid(), number: z.string(), expiresAt: z.iso.datetime() }) })
  .meta({ id: 'VerificationCall' });

export type VerificationCall = z.infer<typeof verificationCallSchema>['data'];

// ---------------------------------------------------------------------------------------------------
// Configuration

/**
 * PUT /v1/accounts/{acc}/phonenumbers/{id}: forwardTo (E.164; null or '' removes it), universalReply and
 * the name. What is not sent stays as it is.
 */
export const updatePhoneNumberSchema = z
  .object({
    forwardTo: z
      .string({ message: validationMessages.phoneInvalid })
      .nullable()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined || value === null || value.trim() === '') return value === undefined ? undefined : null;
        const result = checkE164(value);
        if (result.ok) return result.e164;
        ctx.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }),
    universalReply: z.boolean({ message: 'Must be true or false' }).optional(),
    name: numberName.optional(),
  })
  .meta({ id: 'UpdatePhoneNumber' });

export type UpdatePhoneNumberInput = z.input<typeof updatePhoneNumberSchema>;
export type UpdatePhoneNumber = z.output<typeof updatePhoneNumberSchema>;

// ---------------------------------------------------------------------------------------------------
// Messages

export const PHONE_NUMBER_UPDATE_FAILED_MESSAGE = 'Phone Number Update Failed';
export const PHONE_NUMBERS_TRIAL_MESSAGE =
  'Phone numbers cannot be added on a trial plan. Change the plan to add phone numbers.';
export const PHONE_NUMBER_TAKEN_MESSAGE = 'This number belongs to another account.';
export const PHONE_NUMBER_ALREADY_OURS_MESSAGE = 'This number is already a number of this account.';
export const PHONE_NUMBER_NOT_FOR_SALE_MESSAGE = 'This number is not for sale. Choose one of the available numbers.';
export const PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE = 'This phone number is already verified.';
export const VERIFICATION_CALL_TOO_SOON_MESSAGE = 'A call was placed less than a minute ago. Wait a minute and try again.';
export const VERIFICATION_CALL_UNSUPPORTED_MESSAGE =
  "This number's carrier cannot place verification calls, so it cannot be verified by call.";
export const VERIFICATION_NO_CALL_MESSAGE = 'No verification call is in progress. Request a call first.';
export const VERIFICATION_EXPIRED_MESSAGE = 'The code has expired. Request a new call.';
export const VERIFICATION_TOO_MANY_ATTEMPTS_MESSAGE = 'Too many wrong codes. Request a new call.';
export const VERIFICATION_WRONG_CODE_MESSAGE = 'The code is not correct.';
export const PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE = 'This number is active in another account.';
export const PHONE_NUMBER_CONNECTION_NOT_SMPP_MESSAGE = 'Only numbers of an SMPP connection are added this way.';

/** The data of the phoneNumberAdded and phoneNumberUpdated events. */
export interface PhoneNumberEventData {
  phoneNumber: PhoneNumber;
}
