import { PHONE_NUMBER_FETCH_LIMIT, phoneNumberStatusLabels, type PhoneNumber } from '@parley/shared';

/**
 * The account's numbers as the groups dialogs see them. The list the API gives (one call, up to
 * PHONE_NUMBER_FETCH_LIMIT) leaves released numbers out, while a group keeps holding a number after it is
 * released; such an id is known here only as an id.
 */
export interface AccountNumbers {
  byId: ReadonlyMap<string, PhoneNumber>;
  /** Every number of the account is listed: an id not among them is a released number. */
  complete: boolean;
}

export const RELEASED_NUMBER_LABEL = 'Released number';
export const UNLISTED_NUMBER_LABEL = 'Unlisted number';

export const accountNumbers = (numbers: readonly PhoneNumber[]): AccountNumbers => ({
  byId: new Map(numbers.map((n) => [n.id, n])),
  complete: numbers.length < PHONE_NUMBER_FETCH_LIMIT,
});

/** Writes an E.164 number as the account reads it (usePhoneDisplay's `phone`). */
export type PhoneText = (e164: string) => string;

/** 'Front desk ((202) 555-0143)', or the number alone when it has no name. */
export const phoneNumberLabel = ({ name, number }: Pick<PhoneNumber, 'name' | 'number'>, phone: PhoneText): string =>
  name.trim() === '' ? phone(number) : `${name.trim()} (${phone(number)})`;

/** A number of a group by id; a number that cannot send says its status, so nobody counts on it by mistake. */
export function groupNumberLabel(id: string, numbers: AccountNumbers, phone: PhoneText): string {
  const known = numbers.byId.get(id);
  if (known === undefined) return numbers.complete ? RELEASED_NUMBER_LABEL : UNLISTED_NUMBER_LABEL;
  const label = phoneNumberLabel(known, phone);
  return known.status === 'active' ? label : `${label} · ${phoneNumberStatusLabels[known.status]}`;
}

/**
 * The ids the number select offers, oldest number first: the active numbers, the others the group
 * already holds (so they can be seen and taken out), then whatever else is selected and not listed
 * (released), which drops out of the choice once removed.
 */
export function groupNumberOptions(numbers: readonly PhoneNumber[], held: readonly string[], selected: readonly string[]): string[] {
  const heldIds = new Set(held);
  const listed = numbers.filter((n) => n.status === 'active' || heldIds.has(n.id)).map((n) => n.id);
  const listedIds = new Set(numbers.map((n) => n.id));
  return [...listed, ...selected.filter((id) => !listedIds.has(id))];
}

/** Whether the selection holds numbers that leave the group on save (see phoneNumbersToSend). */
export const holdsReleasedNumbers = (selected: readonly string[], numbers: AccountNumbers): boolean =>
  numbers.complete && selected.some((id) => !numbers.byId.has(id));

/**
 * The `phoneNumbers` of the save request. Without the account's numbers the dialog cannot have shown the
 * group's, so nothing is sent and an update keeps them. Released numbers are left out: the API refuses
 * them, as a released number is no longer the account's to route.
 */
export function phoneNumbersToSend(selected: readonly string[], numbers: AccountNumbers | undefined): string[] | undefined {
  if (numbers === undefined) return undefined;
  return numbers.complete ? selected.filter((id) => numbers.byId.has(id)) : [...selected];
}
