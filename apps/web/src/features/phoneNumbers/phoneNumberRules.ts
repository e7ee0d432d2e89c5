import { can, phoneNumberStatusLabels, phoneNumberTypeLabels, type PhoneNumber, type Role } from '@parley/shared';

/** An Unverified status, or a hosted number not yet verified, shows a Verify action. */
export const needsVerification = (number: Pick<PhoneNumber, 'status' | 'hosted' | 'verified'>): boolean =>
  number.status === 'unverified' || (number.hosted && !number.verified);

/**
 * The Add button is hidden for read-only users and trial plans. Adding numbers is an
 * administrator's capability on the server, so the button follows that table too.
 */
export const showsAddNumber = (role: Role, isTrial: boolean): boolean =>
  role !== 'ReadOnly' && !isTrial && can(role, 'phoneNumbers.manage');

/** After numbers were added: the one whose verification dialog opens, if any needs it. */
export const numberToVerify = (added: readonly PhoneNumber[]): string | null => added.find(needsVerification)?.id ?? null;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export const countryName = (code: string): string => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** The cells of a row of the Phone Numbers table, as text; `phone` writes a number as the account reads it. */
export const phoneNumberCells = (number: PhoneNumber, phone: (e164: string) => string) => ({
  name: number.name === '' ? '—' : number.name,
  number: phone(number.number),
  status: phoneNumberStatusLabels[number.status],
  country: countryName(number.country),
  type: phoneNumberTypeLabels[number.type],
  forwardTo: number.forwardTo === null ? '—' : phone(number.forwardTo),
  universalReply: number.universalReply ? 'Yes' : 'No',
});
