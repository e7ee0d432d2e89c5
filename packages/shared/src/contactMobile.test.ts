import { describe, expect, it } from 'vitest';
import { normaliseContactMobile, isMissingMobile } from './contactMobile.js';

describe('normaliseContactMobile', () => {
  it('normalises a national number with the contact country to E.164', () => {
    expect(normaliseContactMobile('(415) 555-2671', 'us', 'GB')).toEqual({ valid: true, number: '+14155552671', country: 'US' });
  });

  it('falls back to the account default, then to US', () => {
    expect(normaliseContactMobile('07400 123456', '', 'GB')).toEqual({ valid: true, number: '+447400123456', country: 'GB' });
    expect(normaliseContactMobile('415 555 2671', undefined, null)).toEqual({ valid: true, number: '+14155552671', country: 'US' });
  });

  it('takes the country of an international number over the given one', () => {
    expect(normaliseContactMobile('+61 412 345 678', 'US', 'US')).toEqual({ valid: true, number: '+61412345678', country: 'AU' });
  });

  it('keeps an invalid number as given with the reason', () => {
    expect(normaliseContactMobile(' 12345 ', 'US', 'US')).toEqual({
      valid: false,
      number: '12345',
      country: 'US',
      errorDescription: 'Country or Number is not valid',
    });
    expect(normaliseContactMobile('4155552671', 'XX', 'US')).toMatchObject({ valid: false, errorDescription: 'Country is not valid' });
    expect(normaliseContactMobile('  ', 'US', 'US')).toMatchObject({ valid: false, errorDescription: 'Number is missing' });
  });

  it('tells a missing mobile', () => {
    expect(isMissingMobile('  ')).toBe(true);
    expect(isMissingMobile(null)).toBe(true);
    expect(isMissingMobile('1')).toBe(false);
  });
});
