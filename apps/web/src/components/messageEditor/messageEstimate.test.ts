import { MESSAGE_TEXT_MAX, type Contact, type PlanPricing } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { estimateMessage, formatPriceRange, lengthAfterInsert, lengthNotice } from './messageEstimate';

const pricing: PlanPricing = {
  US: { sms: { outbound: '0.0100' }, mms: { outbound: '0.0300' } },
  GB: { sms: { outbound: '0.0400' } },
  DEFAULT: { sms: { outbound: '0.0700' } },
};

const contact = (firstName: string, country: string, attributes: Record<string, string> = {}): Pick<
  Contact,
  'firstName' | 'lastName' | 'mobile' | 'email' | 'attributes'
> => ({ firstName, lastName: 'Doe', mobile: { number: '+14155552671', country }, attributes });

const base = { attributeNames: ['plan'], pricing, hasMedia: false };

describe('estimateMessage', () => {
  it('counts the text as the first recipient gets it and prices one segment per contact', () => {
    const estimate = estimateMessage({ ...base, template: 'Hi {{{firstName}}}', recipients: [contact('Ada', 'US')] });
    expect(estimate).toMatchObject({ preview: 'Hi Ada', encoding: 'GSM-7', segments: 1, charactersLeft: 154, nonGsmCharacters: [] });
    expect(estimate.price).toEqual({ min: '0.0100', max: '0.0100', total: '0.0100' });
  });

  it('moves to 153-character parts past 160 and to UCS-2 for characters GSM-7 lacks, listing them', () => {
    expect(estimateMessage({ ...base, template: 'a'.repeat(161), recipients: [] })).toMatchObject({ segments: 2, charactersLeft: 145 });
    const ucs = estimateMessage({ ...base, template: 'Hello 😀 Ж', recipients: [contact('A', 'US')] });
    expect(ucs).toMatchObject({ encoding: 'UCS-2', segments: 1, nonGsmCharacters: ['😀', 'Ж'] });
    // Smart quotes are sent as GSM-7 look-alikes rather than forcing UCS-2.
    expect(estimateMessage({ ...base, template: '“Hi”', recipients: [] })).toMatchObject({ encoding: 'GSM-7', preview: '"Hi"' });
  });

  it('prices each contact for its country: a range, the total, and the countries without a price', () => {
    const recipients = [contact('Ada', 'US'), contact('Bob', 'GB'), contact('Cy', 'NZ')];
    const sms = estimateMessage({ ...base, template: 'Hi', recipients });
    expect(sms.price).toEqual({ min: '0.0100', max: '0.0700', total: '0.1200' });
    expect(formatPriceRange(sms.price ?? { min: '', max: '' })).toBe('$0.0100 to $0.0700');
    const mms = estimateMessage({ ...base, template: 'Hi', recipients, hasMedia: true });
    expect(mms.price).toEqual({ min: '0.0300', max: '0.0300', total: '0.0300' });
    expect(mms.unpriced).toEqual(['GB', 'NZ']);
  });

  it('renders tokens per contact: longer values cost more segments, unknown tokens are reported', () => {
    const long = 'x'.repeat(200);
    const estimate = estimateMessage({
      ...base,
      template: '{{{plan}}} {{{nope}}}',
      recipients: [contact('Ada', 'US', { plan: 'Gold' }), contact('Bob', 'US', { plan: long })],
    });
    expect(estimate.preview).toBe('Gold ');
    expect(estimate.unknownTokens).toEqual(['nope']);
    expect(estimate.price).toEqual({ min: '0.0100', max: '0.0200', total: '0.0300' });
  });

  it('prices nothing for a contact whose message would be empty, and nothing without a plan', () => {
    expect(estimateMessage({ ...base, template: '{{{firstName}}}', recipients: [contact('', 'US')] }).price).toBeNull();
    expect(estimateMessage({ ...base, pricing: null, template: 'Hi', recipients: [contact('A', 'US')] }).price).toBeNull();
    expect(estimateMessage({ ...base, template: '', recipients: [], hasMedia: true }).segments).toBe(0);
  });
});

describe('the length limit', () => {
  it("says the server's limit at the limit and nothing below it", () => {
    expect(MESSAGE_TEXT_MAX).toBe(1600);
    expect(lengthNotice(1599, null)).toBeNull();
    expect(lengthNotice(1600, null)).toBe('At most 1600 characters');
  });

  it('says how much a paste past the limit left out', () => {
    // A 5,000-character paste into an empty editor keeps 1,600.
    expect(lengthNotice(1600, lengthAfterInsert('', 'x'.repeat(5000), 0, 0))).toBe('At most 1600 characters: 3,400 characters were left out');
    expect(lengthNotice(1600, 1601)).toBe('At most 1600 characters: 1 character was left out');
    // Pasting over a selection counts what it replaces.
    expect(lengthAfterInsert('a'.repeat(1600), 'b'.repeat(10), 0, 10)).toBe(1600);
    expect(lengthNotice(1600, 1600)).toBe('At most 1600 characters');
  });
});
