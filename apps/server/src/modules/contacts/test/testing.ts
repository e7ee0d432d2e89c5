import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../../../platform/db/client.js';
import { contactLists, contacts, listMembers, type ContactRow } from '../../../platform/db/schema/index.js';

let serial = 0;

/** A valid, unused US mobile number in the 555-01xx fiction range's neighbourhood (libphonenumber-valid). */
export function uniqueUsMobile(): string {
  serial += 1;
  const suffix = String((Date.now() + serial) % 10_000).padStart(4, '0');
  const exchange = 200 + ((serial * 7 + Math.floor(Math.random() * 700)) % 700);
  return `+1415${String(exchange)}${suffix}`;
}

/** A contact row written directly (tests that need many, or states the API cannot make). */
export async function insertContact(
  q: Queryable,
  accountId: string,
  overrides: Partial<typeof contacts.$inferInsert> = {},
): Promise<ContactRow> {
  const [row] = await q
    .insert(contacts)
    .values({
      id: uuidv7(),
      accountId,
      firstName: 'Test',
      lastName: 'Contact',
      mobileNumber: uniqueUsMobile(),
      mobileCountry: 'US',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('contact insert returned nothing');
  return row;
}

/** A list of the account with the given contacts as members. */
export async function insertListWith(q: Queryable, accountId: string, contactIds: readonly string[]): Promise<string> {
  const listId = uuidv7();
  await q.insert(contactLists).values({ id: listId, accountId, name: `List ${randomUUID().slice(0, 8)}` });
  if (contactIds.length > 0) {
    await q
      .insert(listMembers)
      .values(contactIds.map((contactId) => ({ id: uuidv7(), accountId, listId, contactId, status: 'optedIn' as const, optInAt: new Date() })));
  }
  return listId;
}
