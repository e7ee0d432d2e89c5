import type { CatalogPlan } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { comparedPlans, includedSegmentsText, planPriceText, segmentPriceText } from './planCatalog';

const plan = (id: string, price: string, overrides: Partial<CatalogPlan> = {}): CatalogPlan => ({
  id,
  name: id.charAt(0).toUpperCase() + id.slice(1),
  price,
  pricing: { DEFAULT: { sms: { outbound: '0.0150' } }, US: { sms: { outbound: '0.0120' }, mms: { outbound: '0.0300' } } },
  supportLevel: Number(price) >= 90 ? 'Premium' : 'Standard',
  includedSegments: { country: 'US', sms: 2416, mms: 966 },
  contactUs: false,
  current: false,
  ...overrides,
});

describe('the plan comparison', () => {
  it('hides free plans and sorts the rest by price, exactly', () => {
    const plans = [plan('scale', '299.0000'), plan('free', '0.0000'), plan('growth', '99.0000'), plan('starter', '29.0000'), plan('tiny', '9.5')];
    expect(comparedPlans(plans).map((p) => p.id)).toEqual(['tiny', 'starter', 'growth', 'scale']);
    // 100.0001 is dearer than 100: no float rounding decides the order.
    expect(comparedPlans([plan('b', '100.0001'), plan('a', '100.0000')]).map((p) => p.id)).toEqual(['a', 'b']);
    expect(comparedPlans([])).toEqual([]);
  });

  it('says what each plan includes and costs a segment', () => {
    expect(includedSegmentsText(plan('starter', '29'))).toBe('2,416 SMS or 966 MMS');
    expect(includedSegmentsText(plan('starter', '29', { includedSegments: { country: 'FR', sms: 1933, mms: null } }))).toBe('1,933 SMS');
    expect(segmentPriceText(plan('starter', '29'), 'sms')).toBe('$0.0120');
    expect(segmentPriceText(plan('starter', '29'), 'mms')).toBe('$0.0300');
    const france = plan('starter', '29', { includedSegments: { country: 'FR', sms: 1933, mms: null } });
    expect(segmentPriceText(france, 'sms')).toBe('$0.0150');
    expect(segmentPriceText(france, 'mms')).toBe('—');
    expect(planPriceText({ price: '29' })).toBe('$29.0000 / month');
  });
});
