import { describe, expect, it } from 'vitest';
import { createAccountSchema, trialDaysLeft, trialEndsAt, trialHasExpired } from './accounts.js';

const valid = {
  name: 'Acme Dental',
  defaults: { country: 'us' },
  support: { address: '1 Main St, Springfield', phone: '(415) 555-2671', email: 'Front@Acme.test', website: '' },
  questionnaire: { messagingVolume: '1,001-10,000', messagingType: ['one to one'] },
};

const messages = (input: unknown): Record<string, string> => {
  const result = createAccountSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('create account', () => {
  it('accepts the required fields and leaves the optional ones out', () => {
    const parsed = createAccountSchema.parse(valid);
    expect(parsed.defaults.country).toBe('US');
    expect(parsed.support.email).toBe('front@acme.test');
    expect(parsed.support.website).toBeUndefined();
    expect(parsed.promoCode).toBeUndefined();
    expect(parsed.questionnaire.desiredIntegrations).toEqual([]);
  });

  it('names the field of each bad value, with its message', () => {
    expect(messages({ ...valid, name: ' ' })).toEqual({ name: 'Required' });
    expect(messages({ ...valid, questionnaire: { ...valid.questionnaire, messagingType: [] } })).toEqual({
      'questionnaire.messagingType': 'Must select 1 or more',
    });
    expect(messages({ ...valid, support: { ...valid.support, website: 'acme.test' } })).toEqual({
      'support.website': 'Valid URL with http or https prefix required',
    });
    expect(messages({ ...valid, support: { ...valid.support, phone: '12' } })).toEqual({
      'support.phone': 'Country or Number is not valid',
    });
    expect(messages({ ...valid, questionnaire: { ...valid.questionnaire, messagingVolume: 'lots' } })).toEqual({
      'questionnaire.messagingVolume': 'Required',
    });
  });
});

describe('trial days left', () => {
  const created = new Date('2026-11-01T12:00:00Z');
  it('counts down from 15 and stops at 0', () => {
    expect(trialDaysLeft(created, created)).toBe(15);
    expect(trialDaysLeft(created, new Date('2026-11-10T12:00:00Z'))).toBe(6);
    expect(trialDaysLeft(created, new Date('2026-11-16T11:59:00Z'))).toBe(1);
    expect(trialDaysLeft(created, new Date('2026-11-16T12:00:00Z'))).toBe(0);
    expect(trialDaysLeft(created, new Date('2027-01-01T00:00:00Z'))).toBe(0);
  });

  it('ends 15 days after creation, the instant days left reach 0', () => {
    expect(trialEndsAt(created).toISOString()).toBe('2026-11-16T12:00:00.000Z');
    expect(trialHasExpired(created, new Date('2026-11-16T11:59:59.999Z'))).toBe(false);
    expect(trialHasExpired(created, new Date('2026-11-16T12:00:00Z'))).toBe(true);
    expect(trialHasExpired(created, new Date('2027-01-01T00:00:00Z'))).toBe(true);
  });
});
