import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { checkE164, numberTypeOf } from '@parley/shared';
import { typeOfNumber } from '../modules/phoneNumbers/phoneNumberCarrier.js';
import type { Queryable } from '../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../platform/db/schema/index.js';

let counter = 0;
const issued = new Set<string>();

/**
 * A valid US long code no other call of this process has made: a random area code and exchange, and a line
 * number from a counter. Only geographic numbers (libphonenumber's FIXED_LINE_OR_MOBILE) are kept: toll-free
 * (800, 833 …) and personal-number (500, 521 …) area codes are drawn too and skipped, since the product gives
 * those numbers other types. Test databases are each test file's own, so uniqueness within the process is enough.
 */
export function uniqueTestNumber(): string {
  for (;;) {
    counter = (counter + 1) % 10_000;
    const area = randomInt(201, 990);
    // Never 555: its 01xx lines are the simulator's inventory.
    const exchange = randomInt(200, 1000);
    if (exchange === 555) continue;
    const candidate = `+1${String(area)}${String(exchange)}${String(counter).padStart(4, '0')}`;
    const checked = checkE164(candidate);
    if (checked.ok && checked.country === 'US' && numberTypeOf(checked.e164) === 'FIXED_LINE_OR_MOBILE' && typeOfNumber(checked.e164) === 'longcode' && !issued.has(checked.e164)) {
      issued.add(checked.e164);
      return checked.e164;
    }
  }
}

/** An active, verified simulator number of the account, with a unique valid E.164 number. */
export async function createPhoneNumber(
  q: Queryable,
  accountId: string,
  overrides: Partial<typeof phoneNumbers.$inferInsert> = {},
): Promise<PhoneNumberRow> {
  const [row] = await q
    .insert(phoneNumbers)
    .values({
      id: uuidv7(),
      accountId,
      number: uniqueTestNumber(),
      name: '',
      country: 'US',
      type: 'longcode',
      carrier: 'simulator',
      status: 'active',
      hosted: false,
      verifiedAt: new Date(),
      supportedDestinations: ['US'],
      messagesPerSecond: 10,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('phone number insert returned nothing');
  return row;
}
