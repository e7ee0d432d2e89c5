import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { Config } from '../../../platform/config.js';
import type { Db } from '../../../platform/db/client.js';
import { integrationConversations, integrations, intercomReplies, type IntegrationConversationRow } from '../../../platform/db/schema/index.js';
import type { JobDefinition, JobQueue } from '../../../platform/jobs/queue.js';
import { closeLinkedInParley, linkOfWorkspace } from './intercomLinks.js';
import { replyDelayOf } from './intercomReplyJob.js';
import { intercomBodyText } from './intercomText.js';

/*
 * Intercom's webhook notifications (docs/integrations.md, "Intercom"), once their signature is checked: an
 * agent's reply is held for the account's reply delay and then texted, a close closes the Parley conversation.
 * The workspace (app_id) picks the accounts connected to it; only conversations Parley carried there are
 * touched, and a topic Parley does not use is acknowledged and left.
 */

export interface IntercomWebhookDeps {
  db: Db;
  config: Config;
  jobs: JobQueue;
  replyJob: JobDefinition<z.ZodType<{ linkId: string }>>;
}

const id = z.union([z.string().min(1), z.number()]).transform(String);
const part = z.object({
  id,
  part_type: z.string(),
  body: z.string().nullish(),
  author: z.object({ type: z.string() }).nullish(),
});
export const intercomNotification = z.object({
  type: z.literal('notification_event'),
  app_id: z.string().min(1),
  topic: z.string(),
  data: z.object({
    item: z
      .object({
        id: id.optional(),
        conversation_parts: z.object({ conversation_parts: z.array(part) }).nullish(),
      })
      .loose(),
  }),
});
export type IntercomNotification = z.infer<typeof intercomNotification>;

export type WebhookOutcome = 'ignored' | 'scheduled' | 'closed';

/** The public replies of admins (and bots speaking for them) in the notification: notes stay in Intercom. */
const agentReplies = (notification: IntercomNotification): { id: string; text: string }[] =>
  (notification.data.item.conversation_parts?.conversation_parts ?? [])
    .filter((p) => p.part_type === 'comment' && ['admin', 'bot'].includes(p.author?.type ?? ''))
    .map((p) => ({ id: p.id, text: intercomBodyText(p.body ?? '') }))
    .filter((p) => p.text !== '');

async function propertiesOf(db: Db, accountId: string): Promise<Record<string, unknown>> {
  const [row] = await db
    .select({ properties: integrations.properties })
    .from(integrations)
    .where(and(eq(integrations.accountId, accountId), eq(integrations.kind, 'intercom')))
    .limit(1);
  return row?.properties ?? {};
}

/** Holds the new parts for the delay; the job is sent for when the latest is due (a part seen before adds nothing). */
async function scheduleReplies(deps: IntercomWebhookDeps, link: IntegrationConversationRow, replies: readonly { id: string; text: string }[]): Promise<WebhookOutcome> {
  const delayMinutes = replyDelayOf(await propertiesOf(deps.db, link.accountId));
  // The database's clock, as the job's start and its check of what is due use.
  const dueAt = sql`now() + make_interval(mins => ${delayMinutes})`;
  const inserted = await deps.db
    .insert(intercomReplies)
    .values(replies.map((r) => ({ id: uuidv7(), accountId: link.accountId, linkId: link.id, partId: r.id, text: r.text, dueAt })))
    .onConflictDoNothing()
    .returning({ id: intercomReplies.id });
  if (inserted.length === 0) return 'ignored';
  await deps.jobs.send(deps.replyJob, { linkId: link.id }, { startAfterSeconds: delayMinutes * 60 });
  return 'scheduled';
}

/** Closed in Intercom: closed in Parley now, or after the replies still held are texted. */
async function closeFromIntercom(deps: IntercomWebhookDeps, link: IntegrationConversationRow): Promise<WebhookOutcome> {
  if (link.status !== 'open') return 'ignored';
  const [held] = await deps.db
    .select({ id: intercomReplies.id })
    .from(intercomReplies)
    .where(and(eq(intercomReplies.linkId, link.id), inArray(intercomReplies.status, ['pending', 'sending'])))
    .limit(1);
  if (held !== undefined) {
    await deps.db.update(integrationConversations).set({ status: 'closing', updatedAt: sql`now()` }).where(eq(integrationConversations.id, link.id));
    return 'scheduled';
  }
  await closeLinkedInParley(deps.db, link);
  return 'closed';
}

export async function handleIntercomNotification(deps: IntercomWebhookDeps, notification: IntercomNotification): Promise<WebhookOutcome> {
  const conversationId = notification.data.item.id;
  if (conversationId === undefined) return 'ignored';
  switch (notification.topic) {
    case 'conversation.admin.replied': {
      const link = await linkOfWorkspace(deps.db, notification.app_id, conversationId);
      const replies = agentReplies(notification);
      return link === null || replies.length === 0 ? 'ignored' : scheduleReplies(deps, link, replies);
    }
    case 'conversation.admin.closed': {
      const link = await linkOfWorkspace(deps.db, notification.app_id, conversationId);
      return link === null ? 'ignored' : closeFromIntercom(deps, link);
    }
    default:
      return 'ignored';
  }
}
