import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db, Queryable } from '../platform/db/client.js';
import {
  accountMembers,
  accounts,
  contacts,
  conversations,
  messages,
  phoneNumbers,
  plans,
  users,
  type ContactRow,
  type PhoneNumberRow,
} from '../platform/db/schema/index.js';
import { creditAccount } from '../modules/billing/ledger.js';

/* Test fixtures of the sending engine: they write rows directly, each test its own account. */

let serial = Math.floor(Math.random() * 5_000_000);

/** A US number no other call of this process has made (San Francisco's area code: zone America/Los_Angeles). */
export function uniqueSendingTestNumber(): string {
  serial += 1;
  const exchange = 200 + (Math.floor(serial / 10_000) % 700);
  return `+1415${String(exchange)}${String(serial % 10_000).padStart(4, '0')}`;
}

/** An active simulator number of the account. */
export async function addPhoneNumber(
  q: Queryable,
  accountId: string,
  overrides: Partial<typeof phoneNumbers.$inferInsert> = {},
): Promise<PhoneNumberRow> {
  const [row] = await q
    .insert(phoneNumbers)
    .values({
      id: uuidv7(),
      accountId,
      number: uniqueSendingTestNumber(),
      country: 'US',
      carrier: 'simulator',
      status: 'active',
      verifiedAt: new Date(),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('phone number insert returned nothing');
  return row;
}

export const MESSAGING_TEST_PLAN = 'messaging-test-plan';

/** US has SMS and MMS prices, GB SMS only, and every other country DEFAULT's SMS price. */
export const messagingTestPricing = {
  US: { sms: { outbound: '0.0100' }, mms: { outbound: '0.0300' } },
  GB: { sms: { outbound: '0.0400' } },
  DEFAULT: { sms: { outbound: '0.0700' } },
};

export async function ensureMessagingPlan(q: Queryable): Promise<string> {
  await q
    .insert(plans)
    .values({ id: MESSAGING_TEST_PLAN, name: 'Messaging Test', price: '49', pricing: messagingTestPricing })
    .onConflictDoNothing();
  return MESSAGING_TEST_PLAN;
}

export interface SendingAccount {
  accountId: string;
  adminId: string;
  /** The account's one active number at first. */
  numberId: string;
  number: string;
}

/**
 * An account on the messaging test plan with a verified administrator, an active number and a balance
 * credited through the ledger (so the ledger sums to it). Quiet hours follow `quietHours` (off unless given).
 */
export async function sendingAccount(
  db: Db,
  options: { balance?: string; quietHours?: { enabled: boolean; start: string; end: string } } = {},
): Promise<SendingAccount> {
  const adminId = uuidv7();
  await db.insert(users).values({
    id: adminId,
    email: `sender-${adminId}@example.test`,
    firstName: 'Sam',
    lastName: 'Sender',
    emailVerifiedAt: new Date(),
    tacAcceptedAt: new Date(),
  });
  const planId = await ensureMessagingPlan(db);
  const quiet = options.quietHours ?? { enabled: false, start: '08:00', end: '21:00' };
  const [account] = await db
    .insert(accounts)
    .values({
      id: uuidv7(),
      name: `Sending ${adminId}`,
      planId,
      support: { address: '1 Main St', phone: '+14155552671', email: 'support@example.test' },
      questionnaire: { messagingVolume: '1-1,000', messagingType: ['one to one'], desiredIntegrations: [] },
      quietHoursEnabled: quiet.enabled,
      quietHoursStart: quiet.start,
      quietHoursEnd: quiet.end,
    })
    .returning();
  if (!account) throw new Error('account insert returned nothing');
  await db.insert(accountMembers).values({ accountId: account.id, userId: adminId, role: 'Administrator' });
  const balance = options.balance ?? '10';
  if (balance !== '0') {
    await db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount: balance, description: 'Test credit' }));
  }
  const number = await addPhoneNumber(db, account.id, { createdAt: new Date('2024-01-01T00:00:00Z') });
  return { accountId: account.id, adminId, numberId: number.id, number: number.number };
}

/** A contact with a unique valid US mobile unless `overrides` says otherwise. */
export async function addContact(q: Queryable, accountId: string, overrides: Partial<typeof contacts.$inferInsert> = {}): Promise<ContactRow> {
  const [row] = await q
    .insert(contacts)
    .values({
      id: uuidv7(),
      accountId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobileNumber: uniqueSendingTestNumber(),
      mobileCountry: 'US',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('contact insert returned nothing');
  return row;
}

/** How many rows each messaging table holds for the account (to show a refusal wrote nothing). */
export async function messagingCounts(
  q: Queryable,
  accountId: string,
): Promise<{ messages: number; conversations: number; ledger: number; events: number }> {
  const result = (await q.execute(
    sql`select
          (select count(*)::int from messages where account_id = ${accountId}) as messages,
          (select count(*)::int from conversations where account_id = ${accountId}) as conversations,
          (select count(*)::int from account_transactions where account_id = ${accountId}) as ledger,
          -- Events, not rows: a row may hold several (insertEventRows) or name several messages (messageEvents.ts).
          (select coalesce(sum(case when jsonb_typeof(data) = 'array' then jsonb_array_length(data)
                                    when type = 'messageSent' and jsonb_typeof(data->'messages') = 'array' then jsonb_array_length(data->'messages')
                                    else 1 end), 0)::int
             from events where account_id = ${accountId} and type in ('messageSent', 'conversationStarted')) as events`,
  )) as { rows: { messages: number; conversations: number; ledger: number; events: number }[] };
  const [row] = result.rows;
  if (!row) throw new Error('no counts');
  return row;
}

/** The account's balance as stored. */
export async function balanceOf(q: Queryable, accountId: string): Promise<string> {
  const [row] = await q.select({ balance: accounts.balance }).from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw new Error('no such account');
  return row.balance;
}

/** An incoming message of a new contact in a new conversation of the account: a record for tenancy walks. */
export async function insertIncomingMessage(q: Queryable, accountId: string): Promise<string> {
  const contact = await addContact(q, accountId);
  const conversationId = uuidv7();
  await q.insert(conversations).values({ id: conversationId, accountId, contactId: contact.id });
  const id = uuidv7();
  await q.insert(messages).values({
    id,
    accountId,
    conversationId,
    contactId: contact.id,
    direction: 'inbound',
    fromNumber: contact.mobileNumber,
    toNumber: '+12025550100',
    status: 'received',
  });
  return id;
}
