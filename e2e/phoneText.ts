import { formatPhoneNumber } from '@parley/shared';

/**
 * A number as the app shows it in the test accounts, whose default country is the United States: national
 * for US numbers ('(415) 555-0101'), international for the rest. The API and downloads keep E.164.
 */
export const shownInUs = (e164: string): string => formatPhoneNumber(e164, 'US');
