export { phoneNumberLabel } from './groupPhoneNumbers';
export { useGroups } from './queries';
