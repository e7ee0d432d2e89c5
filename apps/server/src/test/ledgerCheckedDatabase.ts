import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Database } from '../platform/db/client.js';
import { retireAccount } from '../modules/messaging/test/dispatcherFixtures.js';
import { ledgerAndBalance } from './accounts.js';
import { openTestDatabase, type TestDatabaseKind } from './databases.js';

/**
 * A database for the enclosing describe block, opened before its tests and closed after. After every test,
 * each account the test pushed onto `accounts` must still have a balance equal to the sum of its ledger;
 * then it is retired so the next test's dispatchers leave its messages alone.
 */
export function useLedgerCheckedDatabase(kind: TestDatabaseKind, opened: (database: Database) => void, accounts: string[]): void {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    opened(database);
  });
  afterAll(async () => {
    await database?.close();
  });
  afterEach(async () => {
    if (!database) return;
    for (const accountId of accounts.splice(0)) {
      const { ledger, balance } = await ledgerAndBalance(database.db, accountId);
      expect(balance).toBe(ledger);
      await retireAccount(database.db, accountId);
    }
  });
}
