import { and, eq, sql } from 'drizzle-orm';
import { backgroundBatch, queryRows, type Database, type Db, type Tx } from '../../platform/db/client.js';
import { campaignJobs, type CampaignJobRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { CONTACT_NOT_FOUND, sendMessagesIn, type SendActor } from '../messaging/index.js';
import { storedPhoneNumberFilter } from './campaignStored.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/*
 * Sending an execution (campaign_jobs + campaign_job_recipients, written by campaignExecutor.ts). Each batch
 * is one transaction: it takes the next pending recipients in position order (FOR UPDATE SKIP LOCKED, so two
 * runners of one execution share the work and never take the same recipient), hands them to messageSender
 * (consent, number, tokens, price, ONE ledger debit keyed by the batch, messages, events), and in the same
 * transaction marks each recipient with its message or the reason it could not be sent, and adds to the
 * execution's counters. A process that dies mid-batch rolls the batch back whole; the next run (a retry of
 * the pg-boss job, or the scheduler's sweep) starts again at the first pending recipient, so a recipient is
 * sent at most once. One recipient that cannot be texted never stops the others (messageSender leaves it out
 * with its reason); what stops an execution is the account's own: the balance run out, no number left to
 * send from, the sender's e-mail unverified.
 */

/** Recipients per transaction by default: small, so a batch never holds up incoming messages for long. */
export const CAMPAIGN_BATCH_SIZE = 400;

/**
 * PGlite's batch while no request has waited for its session within the last second: about 0.2 s of it,
 * the most a request arriving then waits; fewer, larger batches save a dozen round trips each.
 */
export const EMBEDDED_QUIET_BATCH_SIZE = 1000;

/**
 * How the worker sends an execution on each database. PGlite has one session and a batch's transaction
 * holds it, so its batches go one at a time: 1,000 recipients, or 100 (about 30 ms) while requests are
 * waiting for the session, which they get before the next batch (platform/db/sessionPool.ts). On PostgreSQL a batch holds
 * nothing an incoming message needs but the account row, and that only from its debit (last) to its commit,
 * so batches are larger (fewer round trips a message) and two run side by side (one writes while the other
 * is worked out): bench/benchmarks/campaign.ts measures it.
 */
export function campaignSending(database: Database): { size: BatchSize; inFlight: number } {
  switch (database.kind) {
    case 'pglite':
      return { size: () => backgroundBatch(database, EMBEDDED_QUIET_BATCH_SIZE, 100), inFlight: 1 };
    case 'postgres':
      return { size: 1000, inFlight: 2 };
  }
}

export const CONTACT_REMOVED_MESSAGE = 'The contact was removed before the message was sent.';

export type BatchOutcome =
  /** A batch was sent; there may be more. */
  | 'sent'
  /** No pending recipient was left to take (another runner may still hold some). */
  | 'empty'
  /** The execution is not running (done, failed, removed). */
  | 'finished';

const CONTACT_GONE = notFound(CONTACT_NOT_FOUND).message;

/** An account-level refusal: it would refuse every remaining batch too, so the execution stops with it. */
function stopsExecution(error: unknown): error is AppError {
  if (!(error instanceof AppError)) return false;
  // A contact removed between taking the batch and sending it: the next attempt marks it, not a stop.
  if (error.statusCode === 404 && error.message === CONTACT_GONE) return false;
  // 402 Insufficient Credit; 400 no active number or group number; 403 an unverified sender; 404 the
  // group or number removed. 409 (already charged) means another runner took this batch: not a stop.
  return error.statusCode === 402 || error.statusCode === 400 || error.statusCode === 403 || error.statusCode === 404;
}

const actorOf = (job: CampaignJobRow): SendActor =>
  job.createdByUserId === null ? { kind: 'system' } : { kind: 'user', userId: job.createdByUserId };

interface Marked {
  position: number;
  messageId: string | null;
  error: string | null;
}

async function markRecipients(tx: Tx, jobId: string, marks: readonly Marked[]): Promise<void> {
  if (marks.length === 0) return;
  const rows = marks.map((m) => ({ p: m.position, m: m.messageId, e: m.error }));
  await tx.execute(sql`
    update campaign_job_recipients r set message_id = v.m, error = v.e
      from json_to_recordset(${jsonRecords(rows)}) as v(p int, m uuid, e text)
     where r.job_id = ${jobId} and r.position = v.p`);
}

/** One batch in its own transaction. Throws what stops the execution (see stopsExecution) and anything unexpected. */
async function sendBatchOnce(db: Db, jobId: string, size: number, now: () => Date): Promise<BatchOutcome> {
  return db.transaction(async (tx) => {
    const [job] = await tx.select().from(campaignJobs).where(eq(campaignJobs.id, jobId)).limit(1);
    if (!job || job.status !== 'running') return 'finished';
    // The recipients are locked (SKIP LOCKED: another runner takes the next ones); a contact removed since the
    // execution began cannot be sent to, and the others must not wait for it.
    const taken = await queryRows<{ position: number; contact_id: string; present: boolean }>(
      tx,
      sql`select r.position, r.contact_id, c.id is not null as present
            from campaign_job_recipients r
            left join contacts c on c.id = r.contact_id and c.account_id = ${job.accountId}
           where r.job_id = ${jobId} and r.message_id is null and r.error is null
           order by r.position limit ${size} for update of r skip locked`,
    );
    if (taken.length === 0) return 'empty';
    const sendable = taken.filter((t) => t.present);
    const marks: Marked[] = taken
      .filter((t) => !t.present)
      .map((t) => ({ position: t.position, messageId: null, error: CONTACT_REMOVED_MESSAGE }));

    let submitted = 0;
    let charged = '0';
    if (sendable.length > 0) {
      const first = sendable[0]?.position ?? 0;
      const result = await sendMessagesIn(tx, {
        accountId: job.accountId,
        actor: actorOf(job),
        contactIds: sendable.map((t) => t.contact_id),
        template: job.template,
        media: job.media,
        phoneNumberFilter: storedPhoneNumberFilter(job.phoneNumberFilter),
        templateId: job.templateId,
        jobId,
        chargeDescription: `Campaign execution ${jobId}: ${String(sendable.length)} recipients from #${String(first)}`,
        // The first pending position names the batch: a batch that committed is never taken again.
        chargeIdempotencyKey: `campaign-job:${jobId}:${String(first)}`,
        whenNoneSendable: 'return',
        now: now(),
      });
      const messageOf = new Map(result.messages.map((m) => [m.contactId, m.id]));
      const errorOf = new Map(result.unsendable.map((u) => [u.contactId, u.error.message]));
      for (const t of sendable) {
        const messageId = messageOf.get(t.contact_id) ?? null;
        marks.push({ position: t.position, messageId, error: messageId === null ? (errorOf.get(t.contact_id) ?? 'Not sent.') : null });
      }
      submitted = result.messages.length;
      charged = result.charged;
    }
    await markRecipients(tx, jobId, marks);
    const failures = marks.length - submitted;
    await tx
      .update(campaignJobs)
      .set({
        submitted: sql`${campaignJobs.submitted} + ${submitted}`,
        failures: sql`${campaignJobs.failures} + ${failures}`,
        price: sql`${campaignJobs.price} + ${charged}::numeric`,
      })
      .where(eq(campaignJobs.id, jobId));
    return 'sent';
  });
}

/**
 * Stops an execution for an account-level reason: every recipient still pending gets the reason, the
 * execution is failed with it (the execution row's error.description, docs/campaigns.md).
 */
export async function stopExecution(db: Db, jobId: string, description: string, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const marked = await queryRows<{ n: number }>(
      tx,
      sql`with m as (
            update campaign_job_recipients set error = ${description}
             where job_id = ${jobId} and message_id is null and error is null returning 1)
          select count(*)::int as n from m`,
    );
    await tx
      .update(campaignJobs)
      .set({
        status: 'failed',
        errorDescription: description,
        finishedAt: now,
        failures: sql`${campaignJobs.failures} + ${marked[0]?.n ?? 0}`,
      })
      .where(and(eq(campaignJobs.id, jobId), eq(campaignJobs.status, 'running')));
  });
}

/** Sends one batch; an account-level refusal stops the execution instead of throwing. */
export async function sendCampaignBatch(
  db: Db,
  jobId: string,
  options: { size?: BatchSize; now?: () => Date } = {},
): Promise<BatchOutcome> {
  const now = options.now ?? (() => new Date());
  const size = typeof options.size === 'function' ? options.size() : (options.size ?? CAMPAIGN_BATCH_SIZE);
  try {
    return await sendBatchOnce(db, jobId, size, now);
  } catch (error) {
    if (!stopsExecution(error)) throw error;
    await stopExecution(db, jobId, error.message, now());
    return 'finished';
  }
}

/** Marks an execution done when it is running and nothing is pending or held by another runner. */
export async function finishExecution(db: Db, jobId: string, now: Date = new Date()): Promise<boolean> {
  const done = await db
    .update(campaignJobs)
    .set({ status: 'done', finishedAt: now })
    .where(
      and(
        eq(campaignJobs.id, jobId),
        eq(campaignJobs.status, 'running'),
        sql`not exists (select 1 from campaign_job_recipients r
                         where r.job_id = ${jobId} and r.message_id is null and r.error is null)`,
      ),
    )
    .returning({ id: campaignJobs.id });
  return done.length > 0;
}

/** Recipients a batch: a number, or asked before each batch. */
export type BatchSize = number | (() => number);

export interface RunOptions {
  size?: BatchSize;
  /**
   * Batches in flight at once, each in its own transaction (SKIP LOCKED gives each its own recipients).
   * Their writes overlap; only their debits (the account row, at the end of each) take turns. Default 1.
   */
  inFlight?: number;
  signal?: AbortSignal;
  now?: () => Date;
}

export const EXECUTION_INTERRUPTED_MESSAGE = 'The execution was interrupted; it resumes where it stopped.';

/**
 * Sends an execution batch after batch until nothing is pending, then marks it done. Stops between batches
 * when `signal` aborts (shutdown): what was sent stays sent, and the next run resumes. With `inFlight` above
 * one, that many batches run side by side; a failure in one stops the others after their current batch,
 * and the first failure is thrown once they have all stopped.
 */
export async function runCampaignExecution(db: Db, jobId: string, options: RunOptions = {}): Promise<'done' | 'finished' | 'pending'> {
  const state = { finished: false, failed: false };
  const lane = async (): Promise<void> => {
    try {
      while (!state.finished && !state.failed) {
        if (options.signal?.aborted === true) throw new Error(EXECUTION_INTERRUPTED_MESSAGE);
        const outcome = await sendCampaignBatch(db, jobId, options);
        if (outcome === 'finished') state.finished = true;
        if (outcome !== 'sent') return;
        // PGlite answers in microtasks: without this, batch after batch would run without the event loop ever
        // turning, and requests, timers and the dispatcher would wait for the whole execution.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      state.failed = true;
      throw error;
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, options.inFlight ?? 1) }, lane));
  const failure = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  if (state.finished) return 'finished';
  // Another runner may still hold a batch; it finishes the execution when it is done.
  return (await finishExecution(db, jobId, options.now?.() ?? new Date())) ? 'done' : 'pending';
}
