export { ApiCredentialsSection } from './ApiCredentialsSection';
export { UnverifiedBanner } from './UnverifiedBanner';
