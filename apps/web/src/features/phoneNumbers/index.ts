export { PhoneNumbersTab } from './PhoneNumbersTab';
export { usePhoneNumbers } from './queries';
