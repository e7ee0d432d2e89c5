import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INTERCOM_DEFAULT_PROPERTIES, intercomPropertiesSchema } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import { queryRows, type Db } from '../../../platform/db/client.js';
import { integrationConversations, integrations, intercomReplies, type IntegrationConversationRow, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { defineJob, type JobDefinition, type JobQueue } from '../../../platform/jobs/queue.js';
import { sendMessagesIn } from '../../messaging/index.js';
import { sessionOf } from '../integrationStore.js';
import { ProviderError } from '../providerError.js';
import { intercomNote } from './intercomApi.js';
import { intercomConnector, intercomTarget } from './intercomConnector.js';
import { closeLinkedInParley, conversationOf } from './intercomLinks.js';

export const INTERCOM_REPLY_JOB_NAME = 'integrations.intercomReplies';
const KEPT_DAYS = 7;

export interface IntercomReplyDeps {
  db: Db;
  config: Config;
  jobs: JobQueue;
}

const jobData = z.object({ linkId: z.uuid() });

/** The account's reply delay in minutes (its property, the default when unset). */
export function replyDelayOf(properties: Readonly<Record<string, unknown>>): number {
  const parsed = intercomPropertiesSchema.safeParse({ ...INTERCOM_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data.replyDelayMinutes : INTERCOM_DEFAULT_PROPERTIES.replyDelayMinutes;
}

async function connected(db: Db, accountId: string): Promise<IntegrationRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, accountId), eq(integrations.kind, 'intercom'), eq(integrations.status, 'connected')))
    .limit(1);
  return row ?? null;
}

export const INTERCOM_NOT_SENT_NOTE = 'Parley did not text this reply';

/** Tells the agents, in a note on the conversation, that their reply was not texted and why; Intercom's refusal is left. */
async function noteRefusal(deps: IntercomReplyDeps, integration: IntegrationRow, link: IntegrationConversationRow, reason: string): Promise<void> {
  try {
    const session = await sessionOf(deps, intercomConnector, integration);
    await intercomNote(intercomTarget(session), link.externalId, session.credentials.adminId ?? '', `${INTERCOM_NOT_SENT_NOTE}: ${reason}`);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
  }
}

type Pending = typeof intercomReplies.$inferSelect;

/**
 * Texts the parts as one message, from the conversation's number, through the account's own send (consent,
 * quiet hours, balance); the parts are marked in the send's transaction. A refused send marks them failed and
 * tells the agents in a note.
 * The link follows the message's conversation (a new one when the old was closed in Parley).
 */
async function textParts(deps: IntercomReplyDeps, link: IntegrationConversationRow, parts: readonly Pending[]): Promise<void> {
  const ids = parts.map((p) => p.id);
  const mark = (status: 'sent' | 'failed', error: string | null) => sql`update ${intercomReplies} set status = ${status}, error = ${error} where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`;
  const conversation = await conversationOf(deps.db, link);
  const integration = await connected(deps.db, link.accountId);
  if (conversation === null || integration === null) {
    await deps.db.execute(mark('failed', conversation === null ? 'The conversation was removed' : 'Intercom is no longer connected'));
    return;
  }
  try {
    await deps.db.transaction(async (tx) => {
      const sent = await sendMessagesIn(tx, {
        accountId: link.accountId,
        actor: { kind: 'system' },
        contactIds: [conversation.contactId],
        template: parts.map((p) => p.text).join('\n\n'),
        phoneNumberFilter: conversation.phoneNumberId === null ? null : { group: conversation.phoneNumberId },
        whenNoneSendable: 'throw',
        chargeDescription: 'Reply from Intercom',
      });
      await tx.execute(mark('sent', null));
      // A reply after the Parley conversation closed went to a new one: the link follows (reopened), unless that
      // conversation carries another Intercom conversation already.
      const movedTo = sent.messages[0]?.conversationId;
      if (movedTo !== undefined && movedTo !== link.conversationId && link.status !== 'closing') {
        await tx.execute(sql`update ${integrationConversations} set conversation_id = ${movedTo}, status = 'open', updated_at = now()
          where id = ${link.id} and not exists (select 1 from ${integrationConversations} o
            where o.account_id = ${link.accountId} and o.kind = ${link.kind} and o.conversation_id = ${movedTo})`);
      }
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await deps.db.execute(mark('failed', error.message));
    await noteRefusal(deps, integration, link, error.message);
  }
}

/**
 * The link's held parts, claimed ('sending') in one statement when none of them is still within the delay
 * (the database's clock decides, as it decided when they fall due); none when another run holds them.
 */
async function claimDue(db: Db, linkId: string): Promise<Pending[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${intercomReplies} set status = 'sending'
         where link_id = ${linkId} and status = 'pending'
           and not exists (select 1 from ${intercomReplies} r where r.link_id = ${linkId} and r.status = 'pending' and r.due_at > now())
        returning id`,
  );
  if (rows.length === 0) return [];
  return db
    .select()
    .from(intercomReplies)
    .where(inArray(intercomReplies.id, rows.map((r) => r.id)))
    .orderBy(asc(intercomReplies.createdAt), asc(intercomReplies.id));
}

/** A conversation Intercom closed while replies were held: closed in Parley once none is held. */
async function closeWhenDone(db: Db, linkId: string): Promise<void> {
  const [link] = await db.select().from(integrationConversations).where(eq(integrationConversations.id, linkId)).limit(1);
  if (link?.status !== 'closing') return;
  const [held] = await db
    .select({ id: intercomReplies.id })
    .from(intercomReplies)
    .where(and(eq(intercomReplies.linkId, linkId), inArray(intercomReplies.status, ['pending', 'sending'])))
    .limit(1);
  if (held === undefined) await closeLinkedInParley(db, link);
}

/**
 * integrations.intercomReplies: an Intercom conversation's agent replies, once the reply delay after the
 * latest has passed (docs/decisions.md, "Intercom reply delay"). A run that finds a part not yet due leaves
 * them all to the job that part scheduled; a conversation Intercom closed meanwhile is closed in Parley after.
 */
export function intercomReplyJob(deps: IntercomReplyDeps): JobDefinition<typeof jobData> {
  return defineJob({
    name: INTERCOM_REPLY_JOB_NAME,
    data: jobData,
    retryLimit: 3,
    async handler({ linkId }) {
      const [link] = await deps.db.select().from(integrationConversations).where(eq(integrationConversations.id, linkId)).limit(1);
      if (link === undefined) return;
      const parts = await claimDue(deps.db, linkId);
      if (parts.length > 0) {
        try {
          await textParts(deps, link, parts);
        } catch (error) {
          // Handed back for the job's retry.
          await deps.db.update(intercomReplies).set({ status: 'pending' }).where(and(inArray(intercomReplies.id, parts.map((p) => p.id)), eq(intercomReplies.status, 'sending')));
          throw error;
        }
      }
      await closeWhenDone(deps.db, linkId);
      await deps.db.delete(intercomReplies).where(and(inArray(intercomReplies.status, ['sent', 'failed']), lt(intercomReplies.createdAt, new Date(Date.now() - KEPT_DAYS * 86_400_000))));
    },
  });
}
