import { and, eq } from 'drizzle-orm';
import type { Tx } from './client.js';
import { accounts } from './schema/index.js';
import { notFound } from '../errors.js';

/**
 * Locks an open account's row for the rest of the transaction. Changes to its members and credentials
 * take this lock first, so checks such as "one administrator must remain" see every earlier change and
 * two requests cannot both pass them.
 */
export async function lockAccount(tx: Tx, accountId: string): Promise<{ id: string; name: string }> {
  const [account] = await tx
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.status, 'active')))
    .for('update');
  if (!account) throw notFound('The account');
  return account;
}
