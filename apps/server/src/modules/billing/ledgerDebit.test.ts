import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { ledgerAndBalance } from '../../test/accounts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { creditAccount, debitAccount, INSUFFICIENT_BALANCE_MESSAGE, InsufficientBalanceError } from './ledger.js';

describe.each(testDatabaseKinds)('ledger debits on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function funded(amount: string): Promise<string> {
    const account = await createAccount(database.db);
    await database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount, description: 'Top-up' }));
    return account.id;
  }
  const debit = (accountId: string, amount: string, idempotencyKey?: string) =>
    database.db.transaction((tx) =>
      debitAccount(tx, { accountId, amount, description: 'Charge', ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }),
    );

  it('takes exact amounts off the balance down to zero, never below, even when debits race', async () => {
    const accountId = await funded('0.1000');
    const results = await Promise.allSettled(Array.from({ length: 15 }, () => debit(accountId, '0.0100')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(InsufficientBalanceError);
      expect((r.reason as InsufficientBalanceError).message).toBe(INSUFFICIENT_BALANCE_MESSAGE);
    }
    expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
  });

  it('refuses a debit above the balance and changes nothing', async () => {
    const accountId = await funded('5');
    await expect(debit(accountId, '5.0001')).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '5.0000', balance: '5.0000' });
    expect(await debit(accountId, '5')).toMatchObject({ balanceAfter: '0.0000', duplicate: false });
  });

  it('debits once per idempotency key', async () => {
    const accountId = await funded('1');
    const first = await debit(accountId, '0.25', 'charge-1');
    const again = await debit(accountId, '0.25', 'charge-1');
    expect(first).toMatchObject({ balanceAfter: '0.7500', duplicate: false });
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.7500', balance: '0.7500' });
  });

  it('answers 404 for an account that does not exist, with or without a key, and writes nothing', async () => {
    const missing = randomUUID();
    for (const key of [undefined, 'charge-x']) {
      const error = await debit(missing, '0.0100', key).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ statusCode: 404 });
    }
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from account_transactions where account_id = ${missing}`);
    expect(row?.n).toBe(0);
  });

  it('writes each debit with the balance it left, in order, when debits race', async () => {
    const accountId = await funded('1');
    await Promise.all(Array.from({ length: 8 }, () => debit(accountId, '0.0300')));
    const entries = await queryRows<{ balance_after: string }>(
      database.db,
      sql`select balance_after::text from account_transactions where account_id = ${accountId} and kind = 'debit' order by balance_after desc`,
    );
    expect(entries.map((e) => e.balance_after)).toEqual(['0.9700', '0.9400', '0.9100', '0.8800', '0.8500', '0.8200', '0.7900', '0.7600']);
    expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.7600', balance: '0.7600' });
  });

  it('refuses zero, negative and over-precise amounts', async () => {
    const accountId = await funded('1');
    for (const amount of ['0', '-1', '0.00001', 'abc']) await expect(debit(accountId, amount), amount).rejects.toThrow();
    expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '1.0000', balance: '1.0000' });
  });
});
