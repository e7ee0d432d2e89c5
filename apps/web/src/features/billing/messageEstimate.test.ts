import type { PlanPricing } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { approximateMessageCount, outboundSmsPrice } from './messageEstimate';

const pricing: PlanPricing = {
  US: { sms: { outbound: '0.0100' } },
  GB: { sms: { outbound: '0.0400' }, mms: { outbound: '0.1000' } },
  DEFAULT: { sms: { outbound: '0.0800' } },
};

describe('outboundSmsPrice', () => {
  it('takes the country price, else the default', () => {
    expect(outboundSmsPrice(pricing, 'GB')).toBe(0.04);
    expect(outboundSmsPrice(pricing, 'NZ')).toBe(0.08);
  });

  it('answers null when neither exists or the price is zero', () => {
    expect(outboundSmsPrice({ US: { sms: { outbound: '0.0100' } } }, 'NZ')).toBeNull();
    expect(outboundSmsPrice({ DEFAULT: { sms: { outbound: '0.0000' } } }, 'US')).toBeNull();
  });
});

describe('approximateMessageCount', () => {
  it('divides the balance by the price, in whole messages', () => {
    expect(approximateMessageCount('1.0000', pricing, 'US')).toBe(100);
    expect(approximateMessageCount('10.0300', pricing, 'GB')).toBe(250);
    expect(approximateMessageCount('0.0799', pricing, 'AU')).toBe(0);
  });

  it('gives 0 for an empty or negative balance and null without a price', () => {
    expect(approximateMessageCount('0.0000', pricing, 'US')).toBe(0);
    expect(approximateMessageCount('-2.0000', pricing, 'US')).toBe(0);
    expect(approximateMessageCount('5.0000', {}, 'US')).toBeNull();
  });
});
