import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPlans } from './plans.js';
import type { Database } from '../../platform/db/client.js';
import { ledgerAndBalance } from '../../test/accounts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount, createUser } from '../../test/factories.js';
import { createAccountFor } from '../accounts/accountCreator.js';
import { creditAccount } from './ledger.js';

describe.each(testDatabaseKinds)('the ledger on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await seedPlans(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it('adds credits exactly, even when they arrive together', async () => {
    const account = await createAccount(database.db);
    const amounts = Array.from({ length: 20 }, (_, i) => `0.${String(i + 1).padStart(4, '0')}`);
    await Promise.all(
      amounts.map((amount) =>
        database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount, description: 'Top-up' })),
      ),
    );
    // 0.0001 + 0.0002 + ... + 0.0020 = 0.0210, where binary floats would drift.
    expect(await ledgerAndBalance(database.db, account.id)).toEqual({ ledger: '0.0210', balance: '0.0210' });
  });

  it('credits a retried top-up once, by its idempotency key', async () => {
    const account = await createAccount(database.db);
    const credit = { accountId: account.id, amount: '10', description: 'Top-up', idempotencyKey: 'pay-1' };
    const first = await database.db.transaction((tx) => creditAccount(tx, credit));
    const again = await database.db.transaction((tx) => creditAccount(tx, credit));
    expect(first).toMatchObject({ balanceAfter: '10.0000', duplicate: false });
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await ledgerAndBalance(database.db, account.id)).toEqual({ ledger: '10.0000', balance: '10.0000' });
  });

  it('refuses zero, negative and over-precise amounts', async () => {
    const account = await createAccount(database.db);
    for (const amount of ['0', '-1', '0.00001', 'abc']) {
      await expect(
        database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount, description: 'x' })),
        amount,
      ).rejects.toThrow();
    }
    expect(await ledgerAndBalance(database.db, account.id)).toEqual({ ledger: '0.0000', balance: '0.0000' });
  });

  it('gives a new account the configured trial credit, or none', async () => {
    const owner = await createUser(database.db);
    const base = { ownerId: owner.id, name: 'Acme', country: 'US', support: {}, questionnaire: { messagingType: [], desiredIntegrations: [] } };
    const credited = await createAccountFor(database.db, base, '12.3456');
    expect(credited.balance).toBe('12.3456');
    expect(await ledgerAndBalance(database.db, credited.id)).toEqual({ ledger: '12.3456', balance: '12.3456' });
    const none = await createAccountFor(database.db, base, '0.0000');
    expect(await ledgerAndBalance(database.db, none.id)).toEqual({ ledger: '0.0000', balance: '0.0000' });
  });
});
