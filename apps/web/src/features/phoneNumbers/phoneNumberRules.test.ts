import { describe, expect, it } from 'vitest';
import { formatPhoneNumber, roles, type PhoneNumber } from '@parley/shared';
import { needsVerification, numberToVerify, phoneNumberCells, showsAddNumber } from './phoneNumberRules';

const number = (overrides: Partial<PhoneNumber> = {}): PhoneNumber => ({
  id: '0190a0a0-0000-7000-8000-000000000001',
  name: '',
  number: '+14155550123',
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

describe('the Verify action', () => {
  it('shows for an Unverified status, or a hosted number not yet verified', () => {
    expect(needsVerification(number({ status: 'unverified', verified: false }))).toBe(true);
    expect(needsVerification(number({ status: 'pending', hosted: true, verified: false }))).toBe(true);
    expect(needsVerification(number({ status: 'unverified', hosted: true, verified: true }))).toBe(true);
  });

  it('does not show for verified or bought numbers', () => {
    expect(needsVerification(number())).toBe(false);
    expect(needsVerification(number({ hosted: true, verified: true }))).toBe(false);
    expect(needsVerification(number({ status: 'suspended', verified: false }))).toBe(false);
  });

  it('opens after adding for the first new number that needs it', () => {
    const bought = number();
    const first = number({ id: '0190a0a0-0000-7000-8000-000000000002', status: 'unverified', hosted: true, verified: false });
    const second = number({ id: '0190a0a0-0000-7000-8000-000000000003', status: 'unverified', hosted: true, verified: false });
    expect(numberToVerify([bought])).toBeNull();
    expect(numberToVerify([first, second])).toBe(first.id);
    expect(numberToVerify([])).toBeNull();
  });
});

describe('the Add button', () => {
  it('is hidden for read-only users and trial plans, shown to administrators', () => {
    for (const role of roles) {
      expect(showsAddNumber(role, true), role).toBe(false);
      expect(showsAddNumber(role, false), role).toBe(role === 'Administrator');
    }
  });
});

describe('a row of the table', () => {
  it('shows the status and type capitalised, the country by name and blanks as a dash', () => {
    const asInUs = (e164: string) => formatPhoneNumber(e164, 'US');
    expect(phoneNumberCells(number({ status: 'unverified', type: 'tollfree', country: 'GB' }), asInUs)).toEqual({
      name: '—',
      number: '(415) 555-0123',
      status: 'Unverified',
      country: 'United Kingdom',
      type: 'Toll Free',
      forwardTo: '—',
      universalReply: 'No',
    });
    expect(phoneNumberCells(number({ name: 'Front desk', forwardTo: '+447400123456', universalReply: true }), asInUs)).toMatchObject({
      name: 'Front desk',
      status: 'Active',
      forwardTo: '+44 7400 123456',
      universalReply: 'Yes',
    });
  });
});
