import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import { emailAddress, httpUrl, oneOrMore, optionalText, requiredText } from './forms.js';
import { supportedCountryCodes } from './phone.js';
import { validationMessages } from './validation.js';

export const messagingVolumes = ['1-1,000', '1,001-10,000', '10,001-50,000', '50,001-100,000', '100,001+'] as const;
export const messagingTypes = ['one to one', 'bulk/automated messaging'] as const;
export const questionnaireIntegrations = [
  'ActiveCampaign',
  'HubSpot',
  'Pipedrive',
  'Slack',
  'Intercom',
  'Zapier',
  'Zoho',
] as const;
export const messageFrequencyUnits = ['day', 'week', 'month'] as const;

/** The trial lasts 15 days; under 5 of balance the top bar warns. */
import { TRIAL_DAYS } from './constants.js';

export const countryCode = z
  .string({ message: validationMessages.required })
  .trim()
  .toUpperCase()
  .refine((c) => supportedCountryCodes.includes(c), { message: validationMessages.phoneCountryInvalid });

/** POST /v1/accounts (create account: required and optional fields). */
export const createAccountSchema = z
  .object({
    name: requiredText(120),
    defaults: z.object({ country: countryCode }),
    promoCode: optionalText(50),
    support: z.object({
      address: requiredText(300),
      phone: requiredText(40),
      email: emailAddress,
      website: z
        .union([z.literal(''), httpUrl])
        .optional()
        .transform((v) => (v === '' ? undefined : v)),
    }),
    questionnaire: z.object({
      messagingVolume: z.enum(messagingVolumes, { message: validationMessages.required }),
      messagingType: oneOrMore(z.enum(messagingTypes)),
      desiredIntegrations: z.array(z.enum(questionnaireIntegrations)).default([]),
      accountUseCases: optionalText(1000),
    }),
  })
  .superRefine((value, ctx) => {
    // The support phone is checked for the account's country, and kept as the person typed it.
    const parsed = parsePhoneNumberFromString(value.support.phone, value.defaults.country as CountryCode);
    if (!parsed?.isValid()) {
      ctx.addIssue({ code: 'custom', message: validationMessages.phoneInvalid, path: ['support', 'phone'] });
    }
  })
  .meta({ id: 'CreateAccount' });

export type CreateAccountInput = z.input<typeof createAccountSchema>;
export type CreateAccount = z.output<typeof createAccountSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a trial plan's account stops spending: created + 15 days; from that instant it is Expired. */
export function trialEndsAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + TRIAL_DAYS * DAY_MS);
}

/** Whether a trial created at `createdAt` has run out at `now` (the server refuses charges from then on). */
export function trialHasExpired(createdAt: Date, now: Date = new Date()): boolean {
  return trialEndsAt(createdAt).getTime() <= now.getTime();
}

/** Whole days of trial left (created + 15 days − now, never below 0); 0 shows 'Expired'. */
export function trialDaysLeft(createdAt: Date, now: Date = new Date()): number {
  return Math.max(0, Math.ceil((trialEndsAt(createdAt).getTime() - now.getTime()) / DAY_MS));
}
