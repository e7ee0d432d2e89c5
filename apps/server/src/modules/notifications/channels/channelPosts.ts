import { sql } from 'drizzle-orm';
import type { Queryable } from '../../../platform/db/client.js';
import { queryRows } from '../../../platform/db/client.js';
import type { NotificationChannelPostRow } from '../../../platform/db/schema/index.js';
import { nextRetryDelay } from '../retrySchedule.js';

export interface ChannelPost {
  id: string;
  accountId: string;
  channelId: string;
  conversationId: string;
  body: NotificationChannelPostRow['body'];
  attempts: number;
  createdAt: Date;
}

/** A claimed post's channel: whom and where to tell. */
export type ClaimedChannel = {
  id: string;
  account_id: string;
  channel: 'email' | 'sms' | 'slack';
  email: string;
  mobile_number: string | null;
  mobile_country: string | null;
  slack_channel_id: string | null;
  secret: string | null;
};

const HOLD_MS = 5 * 60_000;
const CLAIM_MAX = 500;
const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * Claims the posts that are due (held for HOLD_MS: a sender that dies lets them go again). E-mail posts are
 * due as the account's e-mail digests are (docs/notifications.md, "E-mail"): once none has joined the
 * channel's waiting ones for `quietMs`, or the first has waited `maxWaitMs`.
 */
export async function claimDuePosts(q: Queryable, quietMs: number, maxWaitMs: number): Promise<ChannelPost[]> {
  const rows = await queryRows<{ id: string; account_id: string; channel_id: string; conversation_id: string; body: ChannelPost['body']; attempts: number; created_at: Date | string }>(
    q,
    sql`with due_channels as (
          select p.channel_id from notification_channel_posts p join notification_channels c on c.id = p.channel_id
           where p.status = 'pending' and p.next_attempt_at <= now()
           group by p.channel_id, c.channel
          having c.channel <> 'email' or max(p.created_at) <= now() - ${quietMs} * interval '1 millisecond'
              or min(p.created_at) <= now() - ${maxWaitMs} * interval '1 millisecond'
        ), picked as (
          select p.id from notification_channel_posts p
           where p.channel_id in (select channel_id from due_channels) and p.status = 'pending' and p.next_attempt_at <= now()
           order by p.created_at, p.id limit ${CLAIM_MAX} for update skip locked
        )
        update notification_channel_posts p
           set next_attempt_at = now() + ${HOLD_MS} * interval '1 millisecond', attempts = p.attempts + 1
          from picked where p.id = picked.id
     returning p.id, p.account_id, p.channel_id, p.conversation_id, p.body, p.attempts, p.created_at`,
  );
  return rows
    .map((r) => ({ id: r.id, accountId: r.account_id, channelId: r.channel_id, conversationId: r.conversation_id, body: r.body, attempts: r.attempts, createdAt: asDate(r.created_at) }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

export async function claimedChannels(q: Queryable, ids: readonly string[]): Promise<Map<string, ClaimedChannel>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<ClaimedChannel>(
    q,
    sql`select c.id, c.account_id, c.channel, u.email, u.mobile_number, u.mobile_country, c.slack_channel_id, c.secret
          from notification_channels c join users u on u.id = c.user_id
         where c.id = any(string_to_array(${ids.join(',')}, ',')::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Posts sent: done, with the Slack message they became. */
export async function markSent(q: Queryable, postIds: readonly string[], slack: { channel: string; ts: string } | null): Promise<void> {
  if (postIds.length === 0) return;
  await q.execute(sql`update notification_channel_posts
                         set status = 'sent', sent_at = now(), error = null, slack_channel_id = ${slack?.channel ?? null}, slack_ts = ${slack?.ts ?? null}
                       where id = any(string_to_array(${postIds.join(',')}, ',')::uuid[])`);
}

/** Posts not sent: tried again on the webhooks' schedule (docs/notifications.md, "Retries"), or failed for good. */
export async function markFailed(q: Queryable, posts: readonly ChannelPost[], error: string, final: boolean): Promise<void> {
  const now = new Date();
  for (const post of posts) {
    const delay = final ? null : nextRetryDelay(post.attempts, post.createdAt, now);
    await q.execute(sql`update notification_channel_posts
                           set status = ${delay === null ? 'failed' : 'pending'}, error = ${error.slice(0, 500)},
                               next_attempt_at = ${new Date(now.getTime() + (delay ?? 0))}
                         where id = ${post.id}`);
  }
}
