import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContactSchema, updateContactSchema, type CreateContactInput } from '@parley/shared';
import { assertContactReachable, contactReachability } from './reachability.js';
import { insertContact } from './test/testing.js';
import type { Database } from '../../platform/db/client.js';
import { accountTransactions, contacts } from '../../platform/db/schema/index.js';
import { ledgerAndBalance, outboxEvents } from '../../test/accounts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { setContactOptOut } from './contactEvents.js';
import { createContact, updateContact } from './contactWriter.js';
import { creditAccount } from '../billing/ledger.js';

describe.each(testDatabaseKinds)('contact writer on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function accountWith(options: { verifyNumberType: boolean; balance?: string }) {
    const account = await createAccount(database.db, {}, { options: { verifyNumberType: options.verifyNumberType } });
    if (options.balance !== undefined) {
      const amount = options.balance;
      await database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount, description: 'Top-up' }));
    }
    return account.id;
  }
  const create = (accountId: string, input: CreateContactInput) => createContact(database.db, accountId, createContactSchema.parse(input));
  const charges = (accountId: string) =>
    database.db.select().from(accountTransactions).where(sql`${accountTransactions.accountId} = ${accountId} and kind = 'debit'`);

  describe('validate phone number type', () => {
    it('looks up the type of a new valid number and charges 1 cent, once per contact', async () => {
      const accountId = await accountWith({ verifyNumberType: true, balance: '1' });
      const { contact } = await create(accountId, { mobile: { number: '07400 123456', country: 'GB' } });
      expect(contact.numberType).toBe('MOBILE');
      expect(contact.numberTypeCheckedAt).not.toBeNull();
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.9900', balance: '0.9900' });

      // Renumbered: looked up again, not charged again.
      const renumbered = await updateContact(database.db, accountId, contact.id, updateContactSchema.parse({ mobile: { number: '020 7946 0000', country: 'GB' } }));
      expect(renumbered.contact.numberType).toBe('FIXED_LINE');
      // Other changes do not look anything up.
      await updateContact(database.db, accountId, contact.id, updateContactSchema.parse({ firstName: 'Renamed' }));
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.9900', balance: '0.9900' });
      expect(await charges(accountId)).toEqual([
        expect.objectContaining({ amount: '0.0100', description: 'Phone number type validation', idempotencyKey: `number-type:${contact.id}` }),
      ]);

      // Another contact is another cent.
      await create(accountId, { mobile: { number: '07400 123457', country: 'GB' } });
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.9800', balance: '0.9800' });
    });

    it('neither looks up nor charges an invalid number, or when the option is off', async () => {
      const on = await accountWith({ verifyNumberType: true, balance: '1' });
      const invalid = await create(on, { mobile: { number: '123' } });
      expect(invalid.contact).toMatchObject({ valid: false, numberType: null, numberTypeCheckedAt: null });
      const off = await accountWith({ verifyNumberType: false, balance: '1' });
      const unchecked = await create(off, { mobile: { number: '07400 123456', country: 'GB' } });
      expect(unchecked.contact.numberType).toBeNull();
      expect(await ledgerAndBalance(database.db, on)).toEqual({ ledger: '1.0000', balance: '1.0000' });
      expect(await ledgerAndBalance(database.db, off)).toEqual({ ledger: '1.0000', balance: '1.0000' });
    });

    it('saves the contact without a type when the balance cannot cover the cent, and charges once it can', async () => {
      const accountId = await accountWith({ verifyNumberType: true, balance: '0.0099' });
      const { contact } = await create(accountId, { firstName: 'Kept', mobile: { number: '07400 123456', country: 'GB' } });
      expect(contact).toMatchObject({ firstName: 'Kept', valid: true, numberType: null, numberTypeCheckedAt: null });
      expect(await charges(accountId)).toEqual([]);
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.0099', balance: '0.0099' });
      expect(await outboxEvents(database.db, 'contactCreated', accountId)).toHaveLength(1);

      await database.db.transaction((tx) => creditAccount(tx, { accountId, amount: '0.0001', description: 'Top-up' }));
      const renumbered = await updateContact(database.db, accountId, contact.id, updateContactSchema.parse({ mobile: { number: '07400 123457' } }));
      expect(renumbered.contact.numberType).toBe('MOBILE');
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    });

    it('charges each of many contacts added at once exactly once', async () => {
      const accountId = await accountWith({ verifyNumberType: true, balance: '0.05' });
      const numbers = Array.from({ length: 8 }, (_, i) => `07400 12345${String(i)}`);
      const results = await Promise.allSettled(numbers.map((number) => create(accountId, { mobile: { number, country: 'GB' } })));
      expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
      const rows = await database.db.select().from(contacts).where(eq(contacts.accountId, accountId));
      const typed = rows.filter((r) => r.numberType !== null);
      // Five cents buy five lookups; the other contacts are saved without a type.
      expect(rows).toHaveLength(8);
      expect(typed).toHaveLength(5);
      expect(await charges(accountId)).toHaveLength(5);
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    });
  });

  describe('one contact per number', () => {
    it('lets exactly one of several saves of the same number racing each other through; the others answer 409', async () => {
      const accountId = await accountWith({ verifyNumberType: false });
      const results = await Promise.allSettled(
        ['+14155550123', '(415) 555-0123', '415.555.0123', '4155550123', '+1 415 555 0123'].map((number) =>
          create(accountId, { mobile: { number } }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
        expect(r.reason).toMatchObject({ statusCode: 409, code: 'conflict', message: 'A contact with this mobile number already exists' });
      }
      expect(await database.db.select().from(contacts).where(eq(contacts.accountId, accountId))).toHaveLength(1);
      expect(await outboxEvents(database.db, 'contactCreated', accountId)).toHaveLength(1);
    });
  });

  describe('opt-out and opt-in', () => {
    it('publishes contactOptOut and contactOptIn only on a change; opting in lifts a block', async () => {
      const accountId = await accountWith({ verifyNumberType: false });
      const row = await insertContact(database.db, accountId, { blockedAt: new Date('2026-01-01T00:00:00Z') });
      const out = await database.db.transaction((tx) => setContactOptOut(tx, accountId, row.id, true));
      expect(out?.contact.optedOutAt).not.toBeNull();
      await database.db.transaction((tx) => setContactOptOut(tx, accountId, row.id, true));
      const optOuts = await outboxEvents(database.db, 'contactOptOut', accountId);
      expect(optOuts).toHaveLength(1);
      expect(optOuts[0]?.data).toMatchObject({ contact: { id: row.id, optedOut: expect.any(String) as string } });

      const back = await database.db.transaction((tx) => setContactOptOut(tx, accountId, row.id, false));
      expect(back?.contact).toMatchObject({ optedOutAt: null, blockedAt: null });
      await database.db.transaction((tx) => setContactOptOut(tx, accountId, row.id, false));
      expect(await outboxEvents(database.db, 'contactOptIn', accountId)).toHaveLength(1);

      const other = await accountWith({ verifyNumberType: false });
      expect(await database.db.transaction((tx) => setContactOptOut(tx, other, row.id, true))).toBeNull();
      expect(await outboxEvents(database.db, 'contactOptOut', other)).toEqual([]);
    });
  });

  describe('reachability', () => {
    it('says why a contact cannot be texted', async () => {
      const accountId = await accountWith({ verifyNumberType: false });
      const ok = await insertContact(database.db, accountId);
      const blocked = await insertContact(database.db, accountId, { blockedAt: new Date() });
      const optedOut = await insertContact(database.db, accountId, { optedOutAt: new Date() });
      const invalid = await insertContact(database.db, accountId, { valid: false, errorDescription: 'Country or Number is not valid' });
      expect([ok, blocked, optedOut, invalid].map(contactReachability)).toEqual(['reachable', 'blocked', 'optedOut', 'invalid']);
      expect(() => {
        assertContactReachable(ok);
      }).not.toThrow();
      expect(() => {
        assertContactReachable(blocked);
      }).toThrow('This contact is blocked.');
      expect(() => {
        assertContactReachable(invalid);
      }).toThrow('This contact has invalid data. Country or Number is not valid');
    });
  });
});
