import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/*
 * How people read phone numbers on screen. The API, the database, CSV files and downloads keep E.164
 * (+12025550122); what a person reads is the number as it is written where it belongs: in the national
 * format when it is of the account's own country, '(202) 555-0122', and in the international format
 * otherwise, '+44 7400 123456'. docs/decisions.md (Phone numbers on screen) says why.
 */

/**
 * An E.164 number as a person reads it: national when the number belongs to `accountCountry` (the
 * account's default country), international otherwise or while the country is not known. Anything that
 * is not a valid E.164 number (an alphanumeric sender id, what an invalid contact was saved with) is
 * shown as it is.
 */
export function formatPhoneNumber(e164: string, accountCountry?: string | null): string {
  const text = e164.trim();
  if (!text.startsWith('+')) return e164;
  const parsed = parsePhoneNumberFromString(text);
  if (parsed === undefined || !parsed.isValid()) return e164;
  const home = accountCountry?.trim().toUpperCase();
  return parsed.country !== undefined && parsed.country === home ? parsed.formatNational() : parsed.formatInternational();
}

/** What displayName needs of a contact: its names, and its number as the API gives it (E.164). */
export interface NamedContact {
  firstName?: string | null;
  lastName?: string | null;
  /** A contact's `{ number }`, or the bare number (a conversation's contact, a report row). */
  mobile?: string | { number: string } | null;
}

const numberOf = (mobile: NamedContact['mobile']): string => (typeof mobile === 'string' ? mobile : (mobile?.number ?? ''));

/**
 * How a contact is named wherever a name is shown: first and last name, else (a texter nobody named yet)
 * the number, formatted for the account's country.
 */
export function displayName(contact: NamedContact, accountCountry?: string | null): string {
  const name = [contact.firstName, contact.lastName]
    .map((part) => (part ?? '').trim())
    .filter((part) => part !== '')
    .join(' ');
  return name !== '' ? name : formatPhoneNumber(numberOf(contact.mobile), accountCountry);
}
