import { describe, expect, it } from 'vitest';
import type { PlanPricing } from './api/accounts.js';
import { MessagePriceUnavailableError, messagePrice, moneyToUnits, unitsToMoney } from './pricing.js';

const pricing: PlanPricing = {
  US: { sms: { outbound: '0.0079' }, mms: { outbound: '0.0200' } },
  GB: { sms: { outbound: '0.0400' } },
  DEFAULT: { sms: { outbound: '0.0700' } },
};

describe('messagePrice', () => {
  it('charges the SMS price per segment, exactly (no binary float drift)', () => {
    expect(messagePrice(pricing, 'US', { segments: 1, mms: false })).toBe('0.0079');
    expect(messagePrice(pricing, 'US', { segments: 3, mms: false })).toBe('0.0237');
    // 0.0079 * 7 in floats is 0.055299999999999995.
    expect(messagePrice(pricing, 'US', { segments: 7, mms: false })).toBe('0.0553');
    expect(messagePrice(pricing, 'US', { segments: 1_000_000, mms: false })).toBe('7900.0000');
    expect(messagePrice(pricing, 'US', { segments: 0, mms: false })).toBe('0.0000');
  });

  it('falls back to DEFAULT for a country without its own entry, whatever the case of the code', () => {
    expect(messagePrice(pricing, 'NZ', { segments: 2, mms: false })).toBe('0.1400');
    expect(messagePrice(pricing, 'gb', { segments: 2, mms: false })).toBe('0.0800');
  });

  it('charges one MMS price per message when media is attached, whatever the segments', () => {
    expect(messagePrice(pricing, 'US', { segments: 1, mms: true })).toBe('0.0200');
    expect(messagePrice(pricing, 'US', { segments: 9, mms: true })).toBe('0.0200');
  });

  it('refuses MMS where the plan prices none (no borrowing from DEFAULT) and a plan with no entry at all', () => {
    expect(() => messagePrice(pricing, 'GB', { segments: 1, mms: true })).toThrow(MessagePriceUnavailableError);
    expect(() => messagePrice(pricing, 'NZ', { segments: 1, mms: true })).toThrow('the plan has no MMS price for NZ');
    expect(() => messagePrice({}, 'US', { segments: 1, mms: false })).toThrow('the plan has no SMS price for US');
  });

  it('refuses segments that are not a whole number of at least 0', () => {
    for (const segments of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => messagePrice(pricing, 'US', { segments, mms: false })).toThrow(RangeError);
    }
  });

  it('refuses a negative price in the plan', () => {
    expect(() => messagePrice({ DEFAULT: { sms: { outbound: '-0.0100' } } }, 'US', { segments: 1, mms: false })).toThrow(
      RangeError,
    );
  });

  it('prices the shipped plan shape (the Scale plan)', () => {
    const scale: PlanPricing = {
      US: { sms: { outbound: '0.0079' }, mms: { outbound: '0.0200' } },
      CA: { sms: { outbound: '0.0079' }, mms: { outbound: '0.0200' } },
      GB: { sms: { outbound: '0.0400' } },
      AU: { sms: { outbound: '0.0440' } },
      DEFAULT: { sms: { outbound: '0.0700' } },
    };
    expect(messagePrice(scale, 'CA', { segments: 2, mms: false })).toBe('0.0158');
    expect(messagePrice(scale, 'AU', { segments: 3, mms: false })).toBe('0.1320');
  });
});

describe('money units', () => {
  it('converts decimal strings to ten-thousandths and back', () => {
    expect(moneyToUnits('0.0079')).toBe(79n);
    expect(moneyToUnits('5')).toBe(50_000n);
    expect(moneyToUnits('-1.5')).toBe(-15_000n);
    expect(unitsToMoney(79n)).toBe('0.0079');
    expect(unitsToMoney(-15_000n)).toBe('-1.5000');
    expect(unitsToMoney(123_456_789_012_345n)).toBe('12345678901.2345');
  });

  it('refuses more than 4 decimals', () => {
    expect(() => moneyToUnits('0.00791')).toThrow();
  });
});
