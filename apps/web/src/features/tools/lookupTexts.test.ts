import { describe, expect, it } from 'vitest';
import type { CarrierLookup, LookupSettings } from '@parley/shared';
import { carrierText, lookupPriceText, lookupSourceText, nameText } from './lookupTexts';

const settings = (provider: LookupSettings['provider']): LookupSettings => ({ provider, prices: { carrier: '0.0100', name: '0.0200' }, cacheDays: 30 });
const answer = (over: Partial<CarrierLookup>): CarrierLookup => ({
  number: '+33612345678',
  country: 'FR',
  carrier: 'SFR',
  type: 'mobile',
  source: 'twilio',
  cached: false,
  charged: '0.0100',
  lookedUpAt: '2026-11-02T10:00:00.000Z',
  ...over,
});

describe('lookup texts', () => {
  it('tells the price before a lookup with a provider, and says offline ones are free', () => {
    expect(lookupPriceText(settings('twilio'), 'name')).toBe(
      "Each lookup costs $0.0200, taken from the account's balance. Looking up the same number again within 30 days is free.",
    );
    expect(lookupPriceText(settings('offline'), 'carrier')).toContain('free');
    expect(lookupPriceText(settings('offline'), 'carrier')).toContain('first given to');
  });

  it('says where an answer came from and what it cost', () => {
    expect(lookupSourceText(answer({}))).toBe('Looked up just now; charged $0.0100.');
    expect(lookupSourceText(answer({ cached: true, charged: '0.0000' }))).toBe('From a lookup of 2026-11-02; no charge.');
    expect(lookupSourceText(answer({ source: 'offline', charged: '0.0000' }))).toBe("From the number's range data; no charge.");
  });

  it("uses the spec's words for a missing name, and says when a carrier is not known", () => {
    expect(nameText({ ...answer({}), name: null, suggestions: [] })).toBe('Name is unavailable');
    expect(carrierText(answer({ carrier: null }))).toBe('Not known');
  });
});
