import { and, eq, sql } from 'drizzle-orm';
import { CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE, CAMPAIGN_INACTIVE_MESSAGE, moneyToUnits, unitsToMoney, type CampaignInvalidEntry } from '@parley/shared';
import { backgroundBatch, queryRows, type Database, type Db } from '../../platform/db/client.js';
import { campaignJobs, type CampaignJobRow, type CampaignRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { writeAudienceChunk } from './campaignAudience.js';
import { CampaignPricer } from './campaignEstimate.js';
import {
  CAMPAIGN_NOT_FOUND,
  campaignMessage,
  createExecutionIn,
  insertExecutionJob,
  lockCampaign,
  lockExecutableCampaign,
  openExecution,
  priceRecipients,
  queueExecution,
  requireBalance,
  type EnqueueExecution,
  type ExecutionInput,
} from './campaignExecutor.js';
import { storedFilters } from './campaignStored.js';
import { loadAccountSendContext } from '../messaging/index.js';

/*
 * Execute Now of a Manual or Scheduled campaign, prepared in chunks. Writing a large audience in the one
 * transaction of campaignExecutor.ts would hold the embedded database's one session for its whole length
 * (about 0.5 s for 20,000 recipients), and every incoming message would wait for it. So:
 *
 * 1. one short transaction locks the campaign, checks it may run and writes the execution as 'preparing';
 * 2. the audience is written a chunk at a time (in contact id order, as the one-transaction path writes it),
 *    each chunk in its own transaction, which also prices the chunk exactly as the sender will and removes
 *    those it would refuse; requests take the session between chunks;
 * 3. one short transaction locks the campaign again (still there, still active), requires the balance to
 *    cover the summed price (402 'Insufficient Credit'), and opens the execution, as the one-transaction
 *    path does.
 *
 * A 'preparing' execution is nobody's to see or send: lists, reports and senders read only the others.
 * When a step fails the execution is removed with its recipients, so a refusal still changes nothing; one
 * left behind by a process that died is removed by the scheduler's sweep (removeAbandonedPreparations).
 * Scheduled runs and File Upload keep the one transaction: the scheduler's claim and its run must commit
 * together, and an uploaded file is bounded by the request's size.
 */

/** Recipients a chunk's transaction writes: about 30 ms on PGlite, less while requests are waiting. */
const CHUNK = 2000;
const CHUNK_CONTENDED = 500;
/** On PostgreSQL a transaction holds nothing an incoming message needs: chunks only bound its size. */
const CHUNK_POSTGRES = 50_000;

/** Recipients per chunk on each database, asked before each chunk. */
export function audienceChunk(database: Database): () => number {
  switch (database.kind) {
    case 'pglite':
      return () => backgroundBatch(database, CHUNK, CHUNK_CONTENDED);
    case 'postgres':
      return () => CHUNK_POSTGRES;
  }
}

/** Preparations older than this are a dead process's: its request has long failed. */
const ABANDONED_AFTER_SECONDS = 60 * 60;

const campaignGone = (): AppError => new AppError(404, 'not_found', `${CAMPAIGN_NOT_FOUND} was not found.`);

/** Writes, prices and opens a 'preparing' execution; removes it when any step fails. */
async function prepareExecution(
  db: Db,
  campaign: CampaignRow,
  jobId: string,
  options: { chunk: () => number; now: Date },
): Promise<CampaignJobRow> {
  const { accountId } = campaign;
  const filters = storedFilters(campaign.filters);
  try {
    const pricer = new CampaignPricer(await db.transaction((tx) => loadAccountSendContext(tx, accountId)), campaignMessage(campaign));
    // As the one-transaction path lists them: those consent leaves out, then those the sender would refuse,
    // each in contact order (the chunks' order).
    const leftOut: CampaignInvalidEntry[] = [];
    const refused: CampaignInvalidEntry[] = [];
    let recipients = 0;
    let units = 0n;
    let after: string | null = null;
    let position = 0;
    for (;;) {
      const limit = options.chunk();
      const step = await db.transaction(async (tx) => {
        const chunk = await writeAudienceChunk(tx, { accountId, jobId, filters, after, position, limit });
        const ids = sql`select contact_id from campaign_job_recipients where job_id = ${jobId} and position > ${position}`;
        const priced = chunk.written === 0 ? null : await priceRecipients(tx, pricer, jobId, ids);
        return { chunk, priced };
      });
      leftOut.push(...step.chunk.invalid);
      if (step.priced !== null) {
        recipients += step.priced.recipients;
        units += moneyToUnits(step.priced.price);
        refused.push(...step.priced.invalid);
      }
      if (step.chunk.finished || step.chunk.last === null) break;
      after = step.chunk.last;
      position += step.chunk.written;
      // Between chunks the session is free: what waits for it (an incoming message) goes now.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const invalid = [...leftOut, ...refused];
    const job = await db.transaction(async (tx) => {
      const current = await lockCampaign(tx, accountId, campaign.id);
      if (!current) throw campaignGone();
      if (!current.active) throw new AppError(409, 'conflict', CAMPAIGN_INACTIVE_MESSAGE);
      await requireBalance(tx, accountId, unitsToMoney(units), options.now);
      return openExecution(tx, campaign.id, jobId, { recipients, invalid }, options.now);
    });
    if (!job) throw campaignGone();
    return job;
  } catch (error) {
    // Nothing of a refused execution stays. Gone already: the campaign was removed meanwhile.
    const removed = await removePreparation(db, jobId).catch(() => true);
    throw removed ? error : campaignGone();
  }
}

/** Removes a preparing execution with its recipients; false when it was not there. */
async function removePreparation(db: Db, jobId: string): Promise<boolean> {
  const removed = await db
    .delete(campaignJobs)
    .where(and(eq(campaignJobs.id, jobId), eq(campaignJobs.status, 'preparing')))
    .returning({ id: campaignJobs.id });
  return removed.length > 0;
}

/**
 * POST .../execute: locks the campaign, checks it may run (active; rows for File Upload and only then; a
 * person's e-mail verified), creates the execution (in chunks when `chunk` is given, for Manual and
 * Scheduled) and queues its sending.
 */
export async function executeCampaign(
  db: Db,
  enqueue: EnqueueExecution,
  input: ExecutionInput & { accountId: string; campaignId: string },
  onEnqueueError: (error: unknown) => void,
  options: { chunk?: () => number } = {},
): Promise<CampaignJobRow> {
  const now = input.now ?? new Date();
  const { chunk } = options;
  const begun = await db.transaction(async (tx) => {
    const campaign = await lockExecutableCampaign(tx, input.accountId, input.campaignId, input.userId, now);
    if (campaign.trigger === 'FU' || chunk === undefined) {
      return { kind: 'created' as const, job: await createExecutionIn(tx, campaign, { ...input, now }) };
    }
    if (input.rows !== undefined) throw new AppError(400, 'bad_request', CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE);
    const jobId = await insertExecutionJob(tx, campaign, campaign, { userId: input.userId, now, status: 'preparing' });
    return { kind: 'preparing' as const, campaign, jobId, chunk };
  });
  const job = begun.kind === 'created' ? begun.job : await prepareExecution(db, begun.campaign, begun.jobId, { chunk: begun.chunk, now });
  await queueExecution(job, enqueue, onEnqueueError);
  return job;
}

/** Removes the preparations a dead process left (older than `olderThanSeconds`, 1 hour); answers their ids. */
export async function removeAbandonedPreparations(db: Db, options: { olderThanSeconds?: number; now?: Date } = {}): Promise<string[]> {
  const now = options.now ?? new Date();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from campaign_jobs
         where status = 'preparing'
           and created_at < ${now.toISOString()}::timestamptz - make_interval(secs => ${options.olderThanSeconds ?? ABANDONED_AFTER_SECONDS})
        returning id`,
  );
  return rows.map((r) => r.id);
}
