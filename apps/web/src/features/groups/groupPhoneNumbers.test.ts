import { formatPhoneNumber, PHONE_NUMBER_FETCH_LIMIT, type PhoneNumber } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import {
  accountNumbers,
  groupNumberLabel,
  groupNumberOptions,
  holdsReleasedNumbers,
  phoneNumberLabel,
  phoneNumbersToSend,
  RELEASED_NUMBER_LABEL,
  UNLISTED_NUMBER_LABEL,
} from './groupPhoneNumbers';

const asInUs = (e164: string): string => formatPhoneNumber(e164, 'US');

const id = (n: number) => `0190a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;

const number = (n: number, overrides: Partial<PhoneNumber> = {}): PhoneNumber => ({
  id: id(n),
  name: '',
  number: `+1202555${String(n).padStart(4, '0')}`,
  status: 'active',
  country: 'US',
  supportedDestinations: ['US'],
  hosted: false,
  verified: true,
  type: 'longcode',
  forwardTo: null,
  universalReply: false,
  carrier: 'simulator',
  messagesPerSecond: 10,
  created: { at: '2025-01-01T00:00:00.000Z' },
  ...overrides,
});

const frontDesk = number(143, { name: 'Front desk' });
const unnamed = number(2);
const suspended = number(3, { name: 'Old line', status: 'suspended' });
const pending = number(4, { status: 'pending' });
const released = id(99);
const listed = [frontDesk, unnamed, suspended, pending];

/** As many numbers as one fetch brings: the account may hold more. */
const fullPage = Array.from({ length: PHONE_NUMBER_FETCH_LIMIT }, (_, i) => number(1000 + i));

describe('phoneNumberLabel', () => {
  it('names a number by its name and number, or by the number alone when unnamed', () => {
    expect(phoneNumberLabel(frontDesk, asInUs)).toBe('Front desk ((202) 555-0143)');
    expect(phoneNumberLabel(unnamed, asInUs)).toBe('(202) 555-0002');
    expect(phoneNumberLabel({ name: '  ', number: '+12025550002' }, asInUs)).toBe('(202) 555-0002');
    expect(phoneNumberLabel({ name: ' Sales ', number: 'PARLEY' }, asInUs)).toBe('Sales (PARLEY)');
    expect(phoneNumberLabel({ name: 'London', number: '+447400123456' }, asInUs)).toBe('London (+44 7400 123456)');
  });
});

describe('groupNumberLabel', () => {
  const numbers = accountNumbers(listed);

  it('labels active numbers plainly and says the status of the others', () => {
    expect(groupNumberLabel(frontDesk.id, numbers, asInUs)).toBe('Front desk ((202) 555-0143)');
    expect(groupNumberLabel(suspended.id, numbers, asInUs)).toBe('Old line ((202) 555-0003) · Suspended');
    expect(groupNumberLabel(pending.id, numbers, asInUs)).toBe('(202) 555-0004 · Pending');
  });

  it('calls a number missing from the complete list released, and only unlisted when the list may be cut short', () => {
    expect(groupNumberLabel(released, numbers, asInUs)).toBe(RELEASED_NUMBER_LABEL);
    expect(groupNumberLabel(released, accountNumbers(fullPage), asInUs)).toBe(UNLISTED_NUMBER_LABEL);
  });
});

describe('groupNumberOptions', () => {
  it('offers a new group the active numbers only, oldest first', () => {
    expect(groupNumberOptions(listed, [], [])).toEqual([frontDesk.id, unnamed.id]);
  });

  it('also offers the non-active numbers the group already holds, in list order, even once taken out', () => {
    expect(groupNumberOptions(listed, [suspended.id], [suspended.id])).toEqual([frontDesk.id, unnamed.id, suspended.id]);
    expect(groupNumberOptions(listed, [suspended.id], [])).toEqual([frontDesk.id, unnamed.id, suspended.id]);
    expect(groupNumberOptions(listed, [suspended.id], [])).not.toContain(pending.id);
  });

  it('keeps a selected released number as an option until it is taken out', () => {
    expect(groupNumberOptions(listed, [released, unnamed.id], [released, unnamed.id])).toEqual([frontDesk.id, unnamed.id, released]);
    expect(groupNumberOptions(listed, [released, unnamed.id], [unnamed.id])).toEqual([frontDesk.id, unnamed.id]);
  });
});

describe('phoneNumbersToSend', () => {
  it('sends the selection as it is', () => {
    const numbers = accountNumbers(listed);
    expect(phoneNumbersToSend([unnamed.id, suspended.id], numbers)).toEqual([unnamed.id, suspended.id]);
    expect(phoneNumbersToSend([], numbers)).toEqual([]);
  });

  it('sends nothing while the account’s numbers are unknown, so an update keeps the group’s', () => {
    expect(phoneNumbersToSend([frontDesk.id, released], undefined)).toBeUndefined();
  });

  it('leaves released numbers out, which the API would refuse', () => {
    const numbers = accountNumbers(listed);
    expect(holdsReleasedNumbers([frontDesk.id, released], numbers)).toBe(true);
    expect(phoneNumbersToSend([frontDesk.id, released], numbers)).toEqual([frontDesk.id]);
    expect(holdsReleasedNumbers([frontDesk.id], numbers)).toBe(false);
  });

  it('keeps a number missing from a full page, as it may be past the page rather than released', () => {
    const numbers = accountNumbers(fullPage);
    expect(holdsReleasedNumbers([fullPage[0]?.id ?? '', released], numbers)).toBe(false);
    expect(phoneNumbersToSend([fullPage[0]?.id ?? '', released], numbers)).toEqual([fullPage[0]?.id, released]);
  });
});
