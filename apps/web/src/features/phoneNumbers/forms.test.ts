import { describe, expect, it } from 'vitest';
import { hostedPhoneNumbersSchema, updatePhoneNumberSchema, type PhoneNumber } from '@parley/shared';
import { configFormValues } from './configForm';
import { emptyLetter } from './hostedForm';

describe('the Hosted form', () => {
  it('starts empty with one number row, and every field is required', () => {
    const result = hostedPhoneNumbersSchema.safeParse(emptyLetter('GB'));
    expect(result.success).toBe(false);
    const issues = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(issues).toEqual({
      businessName: 'Required',
      phoneNumberProvider: 'Required',
      'numbers.0.number': 'Number is missing',
      authorizingPerson: 'Required',
      email: 'Required',
      address: 'Required',
      city: 'Required',
      state: 'Required',
      postalCode: 'Required',
    });
    expect(emptyLetter('GB').numbers).toEqual([{ country: 'GB', number: '' }]);
  });

  it('sends each number in E.164 for its country, once', () => {
    const letter = {
      ...emptyLetter('US'),
      businessName: 'Acme',
      phoneNumberProvider: 'Old Telco',
      authorizingPerson: 'Ada',
      email: 'ada@acme.example',
      address: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      numbers: [
        { country: 'US', number: '(415) 555-2671' },
        { country: 'GB', number: '020 7946 0018' },
        { country: 'US', number: '+1 415 555 2671' },
      ],
    };
    expect(hostedPhoneNumbersSchema.parse(letter).numbers).toEqual([
      { country: 'US', number: '+14155552671' },
      { country: 'GB', number: '+442079460018' },
    ]);
  });
});

describe('the Phone Number Configuration form', () => {
  const number = { name: 'Main', forwardTo: null, universalReply: true } as PhoneNumber;

  it('opens with what the number has, and an empty forwarding field sends null', () => {
    const values = configFormValues(number);
    expect(values).toEqual({ name: 'Main', forwardTo: '', universalReply: true });
    expect(updatePhoneNumberSchema.parse(values)).toEqual({ name: 'Main', forwardTo: null, universalReply: true });
  });

  it('normalises the forwarding number and names a bad one', () => {
    expect(updatePhoneNumberSchema.parse({ ...configFormValues(number), forwardTo: '+1 (415) 555-2671' }).forwardTo).toBe('+14155552671');
    const bad = updatePhoneNumberSchema.safeParse({ ...configFormValues(number), forwardTo: '555' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['forwardTo', 'Country or Number is not valid']]);
  });
});
