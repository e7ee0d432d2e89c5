import type { HostedPhoneNumbersInput } from '@parley/shared';

/** The letter of authorisation as the Hosted form starts: one number row in the account's country. */
export const emptyLetter = (country: string): HostedPhoneNumbersInput => ({
  businessName: '',
  phoneNumberProvider: '',
  numbers: [{ country, number: '' }],
  authorizingPerson: '',
  email: '',
  address: '',
  city: '',
  state: '',
  postalCode: '',
});
