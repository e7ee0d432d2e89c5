import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { can, type Role } from '@parley/shared';
import type { Db } from '../../../platform/db/client.js';
import { queryRows } from '../../../platform/db/client.js';
import { slackEventReceipts } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { sendMessagesIn } from '../../messaging/index.js';

const messageEvent = z.object({
  type: z.literal('message'),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
  user: z.string().optional(),
  text: z.string().default(''),
  channel: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
});

export const slackEnvelope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: z.string() }),
  z.object({ type: z.literal('event_callback'), team_id: z.string(), event_id: z.string(), event: z.record(z.string(), z.unknown()) }),
]);
export type SlackEnvelope = z.infer<typeof slackEnvelope>;

export type SlackEventOutcome = 'answered' | 'ignored' | 'repeated' | 'refused';

/** Slack writes &, < and > escaped in message text; the contact gets what the user typed. */
const unescape = (text: string): string => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

type Thread = { account_id: string; user_id: string; conversation_id: string; bot_user_id: string | null; role: Role | null };

/**
 * A message event (docs/notifications.md, "Replies from Slack"): a person's reply in the thread of a post
 * Parley made in a connected team and channel is texted to that conversation's contact, as the user who
 * connected the channel, through messaging's sendMessages (consent, quiet hours, price and balance as any
 * reply). Bots' messages (Parley's own posts among them), edits and messages outside such threads are
 * ignored; an event applied once (by event_id) is not applied again when Slack retries it.
 */
export async function applySlackEvent(db: Db, envelope: Extract<SlackEnvelope, { type: 'event_callback' }>): Promise<SlackEventOutcome> {
  const parsed = messageEvent.safeParse(envelope.event);
  if (!parsed.success) return 'ignored';
  const event = parsed.data;
  if (event.subtype !== undefined || event.bot_id !== undefined || event.user === undefined) return 'ignored';
  if (event.thread_ts === undefined || event.thread_ts === event.ts || event.text.trim() === '') return 'ignored';
  const [thread] = await queryRows<Thread>(
    db,
    sql`select c.account_id, c.user_id, p.conversation_id, c.slack_bot_user_id as bot_user_id, m.role
          from notification_channel_posts p
          join notification_channels c on c.id = p.channel_id and c.account_id = p.account_id
          left join account_members m on m.account_id = c.account_id and m.user_id = c.user_id
         where p.slack_channel_id = ${event.channel} and p.slack_ts = ${event.thread_ts}
           and c.slack_team_id = ${envelope.team_id} and c.slack_channel_id = ${event.channel}
         limit 1`,
  );
  if (thread === undefined || event.user === thread.bot_user_id) return 'ignored';
  const text = unescape(event.text);
  return db.transaction(async (tx) => {
    const [fresh] = await tx.insert(slackEventReceipts).values({ eventId: envelope.event_id }).onConflictDoNothing().returning();
    if (fresh === undefined) return 'repeated';
    // The user must still be a member who may answer conversations: the thread is only a way in.
    if (thread.role === null || !can(thread.role, 'conversations.answer')) return 'refused';
    try {
      // A savepoint: a refused send (opted out, no credit) rolls back alone and the event stays applied.
      await tx.transaction((inner) =>
        sendMessagesIn(inner, { accountId: thread.account_id, actor: { kind: 'user', userId: thread.user_id }, conversationIds: [thread.conversation_id], template: text }),
      );
      return 'answered';
    } catch (error) {
      if (error instanceof AppError) return 'refused';
      throw error;
    }
  });
}
