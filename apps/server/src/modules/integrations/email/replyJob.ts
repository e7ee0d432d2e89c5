import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../../platform/config.js';
import type { Db } from '../../../platform/db/client.js';
import { inboundMailReplies, inboundMails, integrations } from '../../../platform/db/schema/index.js';
import { defineJob, type JobDefinition, type JobQueue } from '../../../platform/jobs/queue.js';
import type { Mailer } from '../../../platform/mail/index.js';
import { numberAddress } from './emailAddress.js';
import { replySubject, threadHeaders } from './mailBack.js';

export const EMAIL_REPLY_JOB_NAME = 'integrations.emailReplies';
const BATCH = 50;
const ATTEMPTS = 5;
const RETRY_SECONDS = 60;
const KEPT_DAYS = 7;

export interface EmailReplyDeps {
  db: Db;
  config: Config;
  jobs: JobQueue;
  mailer: Mailer;
}

type Outcome = { status: 'sent' | 'failed'; error?: string } | { status: 'retry'; error: string };

async function mailOne(deps: EmailReplyDeps, reply: typeof inboundMailReplies.$inferSelect): Promise<Outcome> {
  const [mail] = await deps.db.select().from(inboundMails).where(eq(inboundMails.id, reply.mailId)).limit(1);
  const [integration] = await deps.db
    .select({ connection: integrations.connection })
    .from(integrations)
    .where(and(eq(integrations.accountId, reply.accountId), eq(integrations.kind, 'email'), eq(integrations.status, 'connected')))
    .limit(1);
  const domain = deps.config.inboundMail?.domain;
  const token = integration?.connection.token;
  if (mail?.mobile == null || token === undefined || domain === undefined) return { status: 'failed', error: 'The Email integration is no longer connected' };
  try {
    // From the number's address with the current token, so a reply to this mail texts the contact again.
    await deps.mailer.send({
      from: numberAddress(mail.mobile, token, domain),
      to: mail.fromAddress,
      subject: replySubject(mail.subject),
      text: reply.text,
      headers: threadHeaders(mail),
    });
    return { status: 'sent' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return reply.attempts + 1 >= ATTEMPTS ? { status: 'failed', error: message } : { status: 'retry', error: message };
  }
}

/** integrations.emailReplies: mails contacts' texts back to the senders, oldest first; a failure comes back later. */
export function emailReplyJob(deps: EmailReplyDeps): JobDefinition<z.ZodObject> {
  const definition: JobDefinition<z.ZodObject> = defineJob({
    name: EMAIL_REPLY_JOB_NAME,
    data: z.object({}),
    retryLimit: 3,
    async handler() {
      const rows = await deps.db.select().from(inboundMailReplies).where(eq(inboundMailReplies.status, 'pending')).orderBy(asc(inboundMailReplies.createdAt)).limit(BATCH);
      for (const row of rows) {
        const outcome = await mailOne(deps, row);
        const attempts = sql`${inboundMailReplies.attempts} + 1`;
        if (outcome.status === 'retry') {
          await deps.db.update(inboundMailReplies).set({ attempts, lastError: outcome.error }).where(eq(inboundMailReplies.id, row.id));
          await deps.jobs.send(definition, {}, { startAfterSeconds: RETRY_SECONDS });
          return;
        }
        await deps.db.update(inboundMailReplies).set({ status: outcome.status, attempts, lastError: outcome.error ?? null }).where(eq(inboundMailReplies.id, row.id));
      }
      await deps.db.delete(inboundMailReplies).where(and(ne(inboundMailReplies.status, 'pending'), lt(inboundMailReplies.createdAt, new Date(Date.now() - KEPT_DAYS * 86_400_000))));
      if (rows.length === BATCH) await deps.jobs.send(definition, {});
    },
  });
  return definition;
}
