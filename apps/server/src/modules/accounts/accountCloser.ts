import { and, eq } from 'drizzle-orm';
import type { AccountClosedEventData } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { accounts } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { notFound } from '../../platform/errors.js';
import { forgetAccountAccess } from '../identity/index.js';

export interface AccountClosing {
  accountId: string;
  /** Who closed it: a user id, or an API client id. */
  closedBy: string;
  feedback: string;
}

/**
 * Closes an open account. Its rows stay (ledger, messages, members) but nobody can reach it any more:
 * the API guard and the websocket rooms only admit principals to active accounts.
 */
export async function closeAccount(db: Db, closing: AccountClosing, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [closed] = await tx
      .update(accounts)
      .set({ status: 'closed', closedAt: now, closeFeedback: closing.feedback, updatedAt: now })
      .where(and(eq(accounts.id, closing.accountId), eq(accounts.status, 'active')))
      .returning({ id: accounts.id });
    if (!closed) throw notFound('The account');
    const data: AccountClosedEventData = { accountId: closed.id, closedBy: closing.closedBy };
    await publishEvent(tx, { type: 'accountClosed', accountId: closed.id, userId: null, data });
  });
  // The guard's cached roles (modules/identity/memberships.ts) of this process; others see it within seconds.
  forgetAccountAccess(closing.accountId);
}
