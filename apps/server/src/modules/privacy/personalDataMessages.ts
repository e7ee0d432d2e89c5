import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import { moneyToUnits, unitsToMoney } from '@parley/shared';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { accountTransactions, conversations, messages } from '../../platform/db/schema/index.js';
import { refundAccount } from '../billing/index.js';

/*
 * The messaging side of a privacy removal (personalDataEraser.ts): the contact's conversations and every
 * message of theirs, whatever its status, are counted and removed together, so the answer says what went.
 * A message still queued is never sent afterwards: it is removed with the rest, and what it was charged
 * comes back through the ledger. One being handed to the carrier at that moment ('sending') is removed
 * but not refunded, since the carrier may have taken it (docs/decisions.md, "The privacy removal").
 */

export const REMOVED_CONTACT = 'a removed contact';

/** The contact's messages: theirs, and any in their conversations. */
function messagesOf(accountId: string, contactId: string) {
  const theirConversations = sql`(select ${conversations.id} from ${conversations}
    where ${conversations.accountId} = ${accountId} and ${conversations.contactId} = ${contactId})`;
  return and(eq(messages.accountId, accountId), or(eq(messages.contactId, contactId), inArray(messages.conversationId, theirConversations)));
}

/** How many conversations and messages a removal of the contact would take. */
export async function messagingHoldingsOf(q: Queryable, accountId: string, contactId: string): Promise<{ conversations: number; messages: number }> {
  const [held] = await q
    .select({ n: count() })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, contactId)));
  const [sent] = await q.select({ n: count() }).from(messages).where(messagesOf(accountId, contactId));
  return { conversations: held?.n ?? 0, messages: sent?.n ?? 0 };
}

interface RemovedMessage {
  status: string;
  price: string;
  refundedAt: Date | null;
}

/** Gives back, in one ledger entry, what the removed messages that never left were charged. */
async function refundUnsent(tx: Tx, accountId: string, removed: readonly RemovedMessage[]): Promise<void> {
  const unsent = removed.filter((m) => m.status === 'queued' && m.refundedAt === null && moneyToUnits(m.price) > 0n);
  if (unsent.length === 0) return;
  const units = unsent.reduce((sum, m) => sum + moneyToUnits(m.price), 0n);
  await refundAccount(tx, {
    accountId,
    amount: unitsToMoney(units),
    description:
      unsent.length === 1
        ? `Refund: 1 message to ${REMOVED_CONTACT} was not sent`
        : `Refund: ${String(unsent.length)} messages to ${REMOVED_CONTACT} were not sent`,
  });
}

/**
 * What campaign executions kept of the contact: an uploaded row's values (File Upload) and the number of a
 * recipient left out. The recipient rows stay (without data), so an execution's counts do not change.
 */
async function forgetInCampaigns(tx: Tx, accountId: string, contactId: string): Promise<void> {
  await tx.execute(sql`
    update campaign_job_recipients r set data = null
      from campaign_jobs j
     where j.id = r.job_id and j.account_id = ${accountId} and r.contact_id = ${contactId} and r.data is not null`);
  const named = sql`(coalesce(e->'contact'->>'id', e->>'contactId') = ${contactId})`;
  await tx.execute(sql`
    update campaign_jobs j
       set invalid = (select jsonb_agg(case when ${named} then e - 'mobile' else e end order by n)
                        from jsonb_array_elements(j.invalid) with ordinality as t(e, n))
     where j.account_id = ${accountId}
       and exists (select 1 from jsonb_array_elements(j.invalid) as e where ${named})`);
}

/** Ledger entries keep their amounts; a description that names the contact's number names nobody any more. */
async function forgetInLedger(tx: Tx, accountId: string, mobileNumber: string): Promise<void> {
  for (const [prefix, kept] of [
    ['Message to ', 'Message to'],
    ['Auto reply to ', 'Auto reply to'],
  ] as const) {
    await tx
      .update(accountTransactions)
      .set({ description: `${kept} ${REMOVED_CONTACT}` })
      .where(and(eq(accountTransactions.accountId, accountId), eq(accountTransactions.description, `${prefix}${mobileNumber}`)));
  }
}

/**
 * Removes the contact's messages (any status) and conversations, refunds the queued ones, and scrubs
 * what campaigns and the ledger kept of the contact; answers what was removed. In the caller's transaction,
 * before the contact row goes (the rows would cascade from it uncounted).
 */
export async function removeMessagingHoldings(
  tx: Tx,
  accountId: string,
  contact: { id: string; mobileNumber: string },
): Promise<{ conversations: number; messages: number }> {
  // The dispatcher claims with SKIP LOCKED: a message it holds now is seen here as it leaves it ('sending').
  const removed = await tx
    .delete(messages)
    .where(messagesOf(accountId, contact.id))
    .returning({ status: messages.status, price: messages.price, refundedAt: messages.refundedAt });
  await refundUnsent(tx, accountId, removed);
  const closed = await tx
    .delete(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, contact.id)))
    .returning({ id: conversations.id });
  await forgetInCampaigns(tx, accountId, contact.id);
  await forgetInLedger(tx, accountId, contact.mobileNumber);
  return { conversations: closed.length, messages: removed.length };
}
