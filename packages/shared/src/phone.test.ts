import { describe, expect, it } from 'vitest';
import { checkMobile, mobileSchema, supportedCountryCodes } from './phone.js';

describe('checkMobile', () => {
  it('normalises valid numbers to E.164', () => {
    expect(checkMobile({ country: 'US', number: '(415) 555-2671' })).toEqual({
      ok: true,
      e164: '+14155552671',
      country: 'US',
    });
    expect(checkMobile({ country: 'gb', number: '07400 123456' })).toEqual({
      ok: true,
      e164: '+447400123456',
      country: 'GB',
    });
  });

  it('gives each kind of bad input its own message', () => {
    expect(checkMobile({ country: 'US', number: '  ' })).toEqual({ ok: false, message: 'Number is missing' });
    expect(checkMobile({ country: 'XX', number: '4155552671' })).toEqual({
      ok: false,
      message: 'Country is not valid',
    });
    expect(checkMobile({ country: 'US', number: '123' })).toEqual({
      ok: false,
      message: 'Country or Number is not valid',
    });
    // A valid number of another country than the one chosen.
    expect(checkMobile({ country: 'US', number: '+447400123456' })).toEqual({
      ok: false,
      message: 'Country or Number is not valid',
    });
  });

  it('refuses a real country outside the allowed list', () => {
    expect(checkMobile({ country: 'DE', number: '+4915112345678' }, supportedCountryCodes)).toEqual({
      ok: false,
      message: 'Country is not valid',
    });
    expect(checkMobile({ country: 'DE', number: '+4915112345678' }).ok).toBe(true);
  });

  it('is usable as a schema that reports on the number field', () => {
    const schema = mobileSchema(supportedCountryCodes);
    expect(schema.parse({ country: 'ca', number: '604 555 0199' })).toEqual({ country: 'CA', number: '+16045550199' });
    const result = schema.safeParse({ country: 'US', number: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ message: 'Number is missing', path: ['number'] });
  });
});
