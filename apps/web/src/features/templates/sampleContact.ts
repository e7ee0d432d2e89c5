import { displayName, formatPhoneNumber, type Contact } from '@parley/shared';

/*
 * The contact a template's counts and price are worked out for: tokens change the length, so the editor
 * fills them for someone. The account's first contact when it has one; otherwise a built-in sample in the
 * account's country, named as such on screen.
 */

export interface SampleRecipient {
  contact: Contact;
  source: 'firstContact' | 'builtIn';
}

/** Numbers kept for fiction (NANP 555-01xx, Ofcom's drama range, ACMA's fictional mobiles); others use the US one. */
const fictionalNumbers: Readonly<Record<string, string>> = {
  US: '+12015550123',
  CA: '+16135550123',
  GB: '+447700900123',
  AU: '+61491570156',
};

export const builtInSampleContact = (country: string): Contact => ({
  id: '00000000-0000-7000-8000-000000000000',
  firstName: 'Alex',
  lastName: 'Taylor',
  mobile: { number: fictionalNumbers[country] ?? '+12015550123', country },
  email: 'alex@example.com',
  tags: [],
  attributes: {},
  valid: true,
  created: { at: new Date(0).toISOString() },
  updated: { at: new Date(0).toISOString() },
  lists: [],
});

export const sampleRecipient = (firstContact: Contact | null, country: string): SampleRecipient =>
  firstContact === null ? { contact: builtInSampleContact(country), source: 'builtIn' } : { contact: firstContact, source: 'firstContact' };

/** The line under the editor that says whose message the counts describe (numbers read for `accountCountry`). */
export const sampleCaption = ({ contact, source }: SampleRecipient, accountCountry: string | null): string => {
  const who = `${displayName(contact, accountCountry)} (${formatPhoneNumber(contact.mobile.number, accountCountry)})`;
  return source === 'firstContact'
    ? `Counts and price are for the account's first contact, ${who}, with the tokens filled in.`
    : `The account has no contacts yet: counts and price are for a sample contact, ${who}, with no attributes.`;
};
