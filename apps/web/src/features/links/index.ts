export { isVerified, useDomains } from './queries';
