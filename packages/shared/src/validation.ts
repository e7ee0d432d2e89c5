/** The product's validation messages (spec §5), used by the server and the forms alike. */
export const validationMessages = {
  required: 'Required',
  number: 'Must be a number',
  email: 'Invalid email address',
  url: 'Valid URL with http or https prefix required',
  phoneNumberMissing: 'Number is missing',
  phoneCountryInvalid: 'Country is not valid',
  phoneInvalid: 'Country or Number is not valid',
  selectOneOrMore: 'Must select 1 or more',
  passwordTooWeak: 'Password is too weak',
} as const;
