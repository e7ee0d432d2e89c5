import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { validationMessages } from './validation.js';

/**
 * Countries a new user may sign up from and an account may default to: where the carriers the product
 * supports deliver. The list grows with carrier coverage; docs/decisions.md says why these.
 */
export const supportedCountries = [
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'IE', name: 'Ireland' },
  { code: 'AU', name: 'Australia' },
  { code: 'NZ', name: 'New Zealand' },
] as const;

export type SupportedCountryCode = (typeof supportedCountries)[number]['code'];

export const supportedCountryCodes: readonly string[] = supportedCountries.map((c) => c.code);

export const isSupportedCountryCode = (code: string): code is SupportedCountryCode =>
  supportedCountryCodes.includes(code);

export interface MobileInput {
  country: string;
  number: string;
}

export type PhoneCheck = { ok: true; e164: string; country: string } | { ok: false; message: string };

/** Validates a number for a country and normalises it to E.164 (with the phone messages of validation.ts). */
export function checkMobile(input: MobileInput, allowedCountries?: readonly string[]): PhoneCheck {
  const number = input.number.trim();
  if (number === '') return { ok: false, message: validationMessages.phoneNumberMissing };
  const country = input.country.trim().toUpperCase();
  if (
    !isSupportedCountry(country) ||
    (allowedCountries !== undefined && !allowedCountries.includes(country))
  ) {
    return { ok: false, message: validationMessages.phoneCountryInvalid };
  }
  const parsed = parsePhoneNumberFromString(number, country);
  if (!parsed?.isValid() || parsed.country !== country) {
    return { ok: false, message: validationMessages.phoneInvalid };
  }
  return { ok: true, e164: parsed.number, country };
}

/** `{ country, number }` validated and normalised: number becomes E.164, country upper case. */
export const mobileSchema = (allowedCountries?: readonly string[]) =>
  z
    .object({ country: z.string(), number: z.string() })
    .transform((value, ctx) => {
      const result = checkMobile(value, allowedCountries);
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.message, path: ['number'] });
        return z.NEVER;
      }
      return { country: result.country, number: result.e164 };
    });
