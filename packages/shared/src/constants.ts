/**
 * Business constants that the first screen of the web app needs. No schema library here:
 * whatever imports this module must not pull one into the first route.
 */
export const TRIAL_DAYS = 15;
export const LOW_BALANCE_WARNING = 5;
export const DEFAULT_COUNTRY = 'US';
