import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db, Queryable } from '../../platform/db/client.js';
import { queryRows } from '../../platform/db/client.js';
import { webPushSubscriptions } from '../../platform/db/schema/index.js';
import { memberSeesGroupCondition } from '../messaging/index.js';

/** A browser to push to: where, and the keys its payload is encrypted for. */
export interface PushTarget {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface Registration {
  id: string;
  endpoint: string;
  createdAt: Date;
  /** False when the browser was registered already (its keys and owner are refreshed). */
  created: boolean;
}

/** A subscription is dropped after this many failed pushes in a row... */
export const MAX_CONSECUTIVE_FAILURES = 10;
/** ...unless one went through this recently (a push service's outage must not unsubscribe everyone). */
const RECENT_SUCCESS = sql`interval '1 day'`;

/**
 * Registers a browser for an account's notifications, bound to the person who registered it. The
 * endpoint is the browser's own secret, so a registration of it under another account is this browser
 * having moved on (another account chosen, or another person signed in): it is dropped, and a browser
 * never shows one account's or one person's messages after another has taken it over.
 */
export function registerSubscription(
  db: Db,
  input: { accountId: string; userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null },
): Promise<Registration> {
  return db.transaction(async (tx) => {
    await tx
      .delete(webPushSubscriptions)
      .where(and(eq(webPushSubscriptions.endpoint, input.endpoint), ne(webPushSubscriptions.accountId, input.accountId)));
    const [row] = await tx
      .insert(webPushSubscriptions)
      .values({ id: uuidv7(), ...input })
      .onConflictDoUpdate({
        target: [webPushSubscriptions.accountId, webPushSubscriptions.endpoint],
        set: { userId: input.userId, p256dh: input.p256dh, auth: input.auth, userAgent: input.userAgent, failures: 0 },
      })
      .returning({
        id: webPushSubscriptions.id,
        endpoint: webPushSubscriptions.endpoint,
        createdAt: webPushSubscriptions.createdAt,
        // xmax is 0 on a row this statement inserted, set on one it updated.
        created: sql<boolean>`(xmax = 0)`,
      });
    if (!row) throw new Error('the web push subscription upsert returned nothing');
    return row;
  });
}

/** The person's own registration of this browser in the account, if any, is removed. */
export async function unregisterSubscription(db: Db, input: { accountId: string; userId: string; endpoint: string }): Promise<void> {
  await db
    .delete(webPushSubscriptions)
    .where(
      and(
        eq(webPushSubscriptions.accountId, input.accountId),
        eq(webPushSubscriptions.endpoint, input.endpoint),
        eq(webPushSubscriptions.userId, input.userId),
      ),
    );
}

/** What a notification of a conversation shows and who gets it. */
export interface ConversationAudience {
  contact: { firstName: string; lastName: string; mobileNumber: string };
  /** The account's default country: a nameless contact's number is written as that country writes it. */
  accountCountry: string;
  targets: PushTarget[];
}

/**
 * The conversation's contact and the subscriptions of the account's users who may see the conversation
 * (docs/webPush.md), by the one visibility rule (modules/messaging/conversationVisibility.ts): administrators always;
 * with a group, that group's users; without one, every member.
 * Null when the conversation is not the account's (removed meanwhile).
 */
export async function conversationAudience(q: Queryable, accountId: string, conversationId: string): Promise<ConversationAudience | null> {
  const [conversation] = await queryRows<{
    group_id: string | null;
    first_name: string;
    last_name: string;
    mobile_number: string;
    default_country: string;
  }>(
    q,
    sql`select c.group_id, ct.first_name, ct.last_name, ct.mobile_number, a.default_country
          from conversations c
          join contacts ct on ct.id = c.contact_id and ct.account_id = c.account_id
          join accounts a on a.id = c.account_id
         where c.id = ${conversationId} and c.account_id = ${accountId}`,
  );
  if (!conversation) return null;
  const targets = await queryRows<{ id: string; endpoint: string; p256dh: string; auth: string }>(
    q,
    sql`select s.id, s.endpoint, s.p256dh, s.auth
          from web_push_subscriptions s
          join account_members m on m.account_id = s.account_id and m.user_id = s.user_id
         where s.account_id = ${accountId}
           and ${memberSeesGroupCondition({ role: sql`m.role`, userId: sql`s.user_id` }, sql`${conversation.group_id}::uuid`)}
         order by s.id`,
  );
  return {
    contact: { firstName: conversation.first_name, lastName: conversation.last_name, mobileNumber: conversation.mobile_number },
    accountCountry: conversation.default_country,
    targets,
  };
}

/** The outcome of a round of pushes, written back in three statements whatever the number of browsers. */
export async function recordOutcomes(
  q: Queryable,
  outcomes: { delivered: readonly string[]; gone: readonly string[]; failed: readonly string[] },
): Promise<{ removedAfterFailures: number }> {
  if (outcomes.delivered.length > 0) {
    await q
      .update(webPushSubscriptions)
      .set({ lastSuccessAt: sql`now()`, failures: 0 })
      .where(inArray(webPushSubscriptions.id, [...outcomes.delivered]));
  }
  if (outcomes.gone.length > 0) {
    await q.delete(webPushSubscriptions).where(inArray(webPushSubscriptions.id, [...outcomes.gone]));
  }
  if (outcomes.failed.length === 0) return { removedAfterFailures: 0 };
  await q
    .update(webPushSubscriptions)
    .set({ failures: sql`${webPushSubscriptions.failures} + 1` })
    .where(inArray(webPushSubscriptions.id, [...outcomes.failed]));
  const removed = await q
    .delete(webPushSubscriptions)
    .where(
      and(
        inArray(webPushSubscriptions.id, [...outcomes.failed]),
        sql`${webPushSubscriptions.failures} >= ${MAX_CONSECUTIVE_FAILURES}`,
        sql`(${webPushSubscriptions.lastSuccessAt} is null or ${webPushSubscriptions.lastSuccessAt} < now() - ${RECENT_SUCCESS})`,
      ),
    )
    .returning({ id: webPushSubscriptions.id });
  return { removedAfterFailures: removed.length };
}
