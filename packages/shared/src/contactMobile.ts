import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { validationMessages } from './validation.js';

/**
 * A contact's mobile as it will be stored: E.164 and its country when valid; otherwise the number as given
 * (trimmed) with the reason, so the contact is kept and shown as invalid rather than lost.
 */
export type ContactMobile =
  | { valid: true; number: string; country: string }
  | { valid: false; number: string; country: string; errorDescription: string };

/** The fallback when neither the contact nor the account names a country. */
export const fallbackContactCountry = 'US';

/**
 * Normalises a contact's number. The country is the contact's own when given, else the account's default,
 * else US; a number written internationally (+44 ...) carries its own country. Any country libphonenumber
 * knows is accepted: contacts may live anywhere, and what may be sent where is the plan's business.
 * An empty number is not a contact at all: callers check `isMissingMobile` first.
 */
export function normaliseContactMobile(
  number: string,
  country: string | null | undefined,
  defaultCountry: string | null | undefined,
): ContactMobile {
  const given = number.trim();
  const code = (country ?? '').trim().toUpperCase() || (defaultCountry ?? '').trim().toUpperCase() || fallbackContactCountry;
  if (given === '') return { valid: false, number: given, country: code, errorDescription: validationMessages.phoneNumberMissing };
  if (!isSupportedCountry(code)) {
    return { valid: false, number: given, country: code, errorDescription: validationMessages.phoneCountryInvalid };
  }
  const parsed = parsePhoneNumberFromString(given, code);
  if (!parsed?.isValid() || parsed.country === undefined) {
    return { valid: false, number: given, country: code, errorDescription: validationMessages.phoneInvalid };
  }
  return { valid: true, number: parsed.number, country: parsed.country };
}

export const isMissingMobile = (number: string | null | undefined): boolean => (number ?? '').trim() === '';
