import { describe, expect, it } from 'vitest';
import { displayName, formatPhoneNumber } from './phoneDisplay.js';

describe('formatPhoneNumber', () => {
  it('writes a number of the account country in its national format', () => {
    expect(formatPhoneNumber('+12025550122', 'US')).toBe('(202) 555-0122');
    expect(formatPhoneNumber('+447400123456', 'GB')).toBe('07400 123456');
    expect(formatPhoneNumber('+61412345678', 'au')).toBe('0412 345 678');
  });

  it('writes a number of another country in the international format', () => {
    expect(formatPhoneNumber('+447400123456', 'US')).toBe('+44 7400 123456');
    expect(formatPhoneNumber('+12025550122', 'GB')).toBe('+1 202 555 0122');
    // Same calling code, another country: Canada is not the United States.
    expect(formatPhoneNumber('+16045550199', 'US')).toBe('+1 604 555 0199');
  });

  it('writes the international format while the account country is not known', () => {
    expect(formatPhoneNumber('+12025550122', null)).toBe('+1 202 555 0122');
    expect(formatPhoneNumber('+12025550122')).toBe('+1 202 555 0122');
  });

  it('leaves what is not a valid E.164 number as it is', () => {
    expect(formatPhoneNumber('PARLEY', 'US')).toBe('PARLEY');
    expect(formatPhoneNumber('12345', 'US')).toBe('12345');
    expect(formatPhoneNumber('+1415555', 'US')).toBe('+1415555');
    expect(formatPhoneNumber('', 'US')).toBe('');
  });
});

describe('displayName', () => {
  it('is the name when the contact has one', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+14155550101' } }, 'US')).toBe('Ada Lovelace');
    expect(displayName({ firstName: ' Ada ', lastName: '', mobile: '+14155550101' }, 'US')).toBe('Ada');
    expect(displayName({ firstName: '', lastName: 'Lovelace', mobile: '+14155550101' }, 'US')).toBe('Lovelace');
  });

  it('is the formatted number for a contact without a name (an unknown texter)', () => {
    expect(displayName({ firstName: '', lastName: '', mobile: { number: '+14155550101' } }, 'US')).toBe('(415) 555-0101');
    expect(displayName({ firstName: ' ', lastName: null, mobile: '+447400123456' }, 'US')).toBe('+44 7400 123456');
    expect(displayName({ firstName: '', lastName: '', mobile: '+447400123456' }, 'GB')).toBe('07400 123456');
  });
});
