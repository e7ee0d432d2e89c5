import { and, eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE,
  CAMPAIGN_FILE_REQUIRED_MESSAGE,
  CAMPAIGN_INACTIVE_MESSAGE,
  emptyCampaignFilters,
  type CampaignFileRows,
  type CampaignInvalidEntry,
  type PhoneNumberFilter,
} from '@parley/shared';
import { queryRows, type Db, type Tx } from '../../platform/db/client.js';
import { campaignJobs, campaigns, users, type CampaignJobRow, type CampaignRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { activeSenderNumbers, senderCandidates } from '../messaging/index.js';
import { requireVerifiedEmail } from '../../platform/policies/verifiedEmail.js';
import { consentDescription, exclusionReason, insertAudience } from './campaignAudience.js';
import { CampaignPricer, estimateWith, type CampaignMessage } from './campaignEstimate.js';
import { upsertFileContacts, type FileRecipient } from './campaignFileRows.js';
import { storedFieldMappings, storedFilters, storedPhoneNumberFilter } from './campaignStored.js';
import { InsufficientBalanceError, requireChargeableAccount } from '../billing/index.js';
import { loadAccountSendContext } from '../messaging/index.js';
import { shortenLinks } from '../links/index.js';
import { isUuid } from '../../platform/db/ids.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/*
 * Executing a campaign (docs/campaigns.md: 'Execution is blocked when balance is below the estimated price';
 * 'Executing updates last execution, increments execution count and prepends the run'). In ONE transaction:
 * the campaign row is locked (a manual run and the scheduler take turns), the audience is resolved into
 * campaign_job_recipients (or, for File Upload, the rows create or update their contacts and become the
 * recipients), the estimate is priced exactly as the sender charges, the balance must cover it (else 402
 * 'Insufficient Credit' and nothing is written), and the campaign counts the run. Sending happens after the
 * commit, in the background (campaignSender.ts), in small batches. Execute Now of a Manual or Scheduled
 * campaign writes the same in chunks instead (campaignPreparation.ts), from the same parts.
 */

export const CAMPAIGN_NOT_FOUND = 'The campaign';
export const CAMPAIGN_SENDER_GONE_MESSAGE = "The campaign's group or phone number no longer exists. Edit the campaign to choose another.";

/** Recipients written per statement. */
const RECIPIENT_WRITE_BATCH = 10_000;

/** The campaign of the account, locked for the execution; null for another account's or an unknown id. */
export async function lockCampaign(tx: Tx, accountId: string, id: string): Promise<CampaignRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)))
    .for('update');
  return row ?? null;
}

export const campaignMessage = (row: Pick<CampaignRow, 'template' | 'media'>): CampaignMessage => ({
  template: row.template,
  hasMedia: row.media.length > 0,
});

/** Refuses an execution that could not send at all: the campaign's group or number has nothing active. */
async function checkSender(tx: Tx, accountId: string, filter: PhoneNumberFilter | null): Promise<void> {
  try {
    await senderCandidates(tx, accountId, await activeSenderNumbers(tx, accountId), filter);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw new AppError(409, 'conflict', CAMPAIGN_SENDER_GONE_MESSAGE);
    throw error;
  }
}

async function insertFileRecipients(tx: Tx, jobId: string, recipients: readonly FileRecipient[]): Promise<void> {
  for (let at = 0; at < recipients.length; at += RECIPIENT_WRITE_BATCH) {
    const rows = recipients.slice(at, at + RECIPIENT_WRITE_BATCH).map((r) => ({ p: r.row, c: r.contactId, d: r.data }));
    await tx.execute(sql`
      insert into campaign_job_recipients (job_id, position, contact_id, data)
      select ${jobId}::uuid, r.p, r.c, r.d from json_to_recordset(${jsonRecords(rows)}) as r(p int, c uuid, d jsonb)`);
  }
}

/**
 * File Upload: the rows' contacts, then consent (blocked, opted out, opted out of the list the row names,
 * invalid numbers are left out with their row), then the recipients in row order.
 */
async function fileAudience(
  tx: Tx,
  campaign: CampaignRow,
  jobId: string,
  rows: CampaignFileRows,
): Promise<{ recipients: number; invalid: CampaignInvalidEntry[]; rowOf: Map<string, number> }> {
  const { accountId } = campaign;
  const read = await upsertFileContacts(tx, accountId, storedFieldMappings(campaign.fieldMappings), rows);
  const reason = exclusionReason(accountId, emptyCampaignFilters());
  const refused = new Map<string, { reason: CampaignInvalidEntry['reason']; error: string | null }>();
  const ids = read.recipients.map((r) => r.contactId);
  for (let at = 0; at < ids.length; at += RECIPIENT_WRITE_BATCH) {
    const found = await queryRows<{ id: string; reason: CampaignInvalidEntry['reason']; error: string | null }>(
      tx,
      sql`select * from (select id, ${reason} as reason, error_description as error from contacts
            where account_id = ${accountId}
              and id in (select (jsonb_array_elements_text(${JSON.stringify(ids.slice(at, at + RECIPIENT_WRITE_BATCH))}::jsonb))::uuid)) s
          where s.reason is not null`,
    );
    for (const f of found) refused.set(f.id, { reason: f.reason, error: f.error });
  }
  // A row that names a list is texted as a member of it: one who opted out of that list is left out.
  const listed = read.recipients.filter((r) => r.listId !== null && !refused.has(r.contactId)).map((r) => ({ c: r.contactId, l: r.listId }));
  for (let at = 0; at < listed.length; at += RECIPIENT_WRITE_BATCH) {
    const optedOut = await queryRows<{ contact_id: string }>(
      tx,
      sql`select lm.contact_id from list_members lm
            join json_to_recordset(${jsonRecords(listed.slice(at, at + RECIPIENT_WRITE_BATCH))}) as p(c uuid, l uuid)
              on lm.contact_id = p.c and lm.list_id = p.l
           where lm.account_id = ${accountId} and lm.status = 'optedOut'`,
    );
    for (const o of optedOut) refused.set(o.contact_id, { reason: 'listOptedOut', error: null });
  }
  const invalid = [...read.invalid];
  const sendable: FileRecipient[] = [];
  for (const r of read.recipients) {
    const why = refused.get(r.contactId);
    if (why === undefined) sendable.push(r);
    else invalid.push({ reason: why.reason, description: consentDescription(why.reason, why.error), contact: { id: r.contactId }, mobile: r.mobile, row: r.row });
  }
  await insertFileRecipients(tx, jobId, sendable);
  return {
    recipients: sendable.length,
    invalid: invalid.sort((a, b) => (a.row ?? 0) - (b.row ?? 0)),
    rowOf: new Map(sendable.map((r) => [r.contactId, r.row])),
  };
}

/** Throws 402 `trial_expired` when the account's trial has run out, 402 'Insufficient Credit' when the balance is below the estimate. */
export async function requireBalance(tx: Tx, accountId: string, price: string, now: Date): Promise<void> {
  await requireChargeableAccount(tx, accountId, now);
  const [row] = await queryRows<{ covered: boolean }>(
    tx,
    sql`select balance >= ${price}::numeric as covered from accounts where id = ${accountId}`,
  );
  if (row?.covered !== true) throw new InsufficientBalanceError();
}

export interface ExecutionInput {
  /** The user who executes it (their e-mail must be verified); null for the scheduler or an API client. */
  userId: string | null;
  /** FU: the file's rows. */
  rows?: CampaignFileRows | undefined;
  now?: Date;
}

/** What an execution sends: the campaign's text, media and sender now, or a former execution's for a resend. */
export interface ExecutionSource {
  template: string;
  media: CampaignRow['media'];
  phoneNumberFilter: CampaignRow['phoneNumberFilter'];
  templateId: string | null;
}

/**
 * Writes the execution's row (no recipients yet) after checking its sender can send; answers its id. It is
 * 'running' when written in the transaction that completes it, 'preparing' while its audience is written in
 * chunks (campaignPreparation.ts).
 */
export async function insertExecutionJob(
  tx: Tx,
  campaign: CampaignRow,
  source: ExecutionSource,
  input: { userId: string | null; now: Date; status?: 'running' | 'preparing' },
): Promise<string> {
  await checkSender(tx, campaign.accountId, storedPhoneNumberFilter(source.phoneNumberFilter));
  const jobId = uuidv7();
  await tx.insert(campaignJobs).values({
    id: jobId,
    accountId: campaign.accountId,
    campaignId: campaign.id,
    status: input.status ?? 'running',
    template: source.template,
    media: source.media,
    phoneNumberFilter: source.phoneNumberFilter,
    templateId: source.templateId,
    reporting: campaign.reporting,
    createdByUserId: input.userId,
    createdAt: input.now,
  });
  return jobId;
}

/** The recipients written for an execution, and those left out with their reasons. */
export interface WrittenAudience {
  recipients: number;
  invalid: CampaignInvalidEntry[];
  /** File Upload: the file row of each recipient contact, for the entries the estimate leaves out. */
  rowOf?: Map<string, number>;
}

/**
 * Prices the recipients `ids` selects (of the execution's) exactly as the sender will, and removes those it
 * would refuse: answers how many are left, their price and the refused as invalid entries.
 */
export async function priceRecipients(
  tx: Tx,
  pricer: CampaignPricer,
  jobId: string,
  ids: SQL,
  rowOf?: Map<string, number>,
): Promise<{ recipients: number; price: string; invalid: CampaignInvalidEntry[] }> {
  const estimate = await estimateWith(tx, pricer, ids);
  const invalid: CampaignInvalidEntry[] = [];
  if (estimate.refused.length > 0) {
    const refusedIds = estimate.refused.map((r) => r.contactId);
    await tx.execute(sql`
      delete from campaign_job_recipients
       where job_id = ${jobId} and contact_id in (select (jsonb_array_elements_text(${JSON.stringify(refusedIds)}::jsonb))::uuid)`);
    for (const r of estimate.refused) {
      invalid.push({ reason: r.reason, description: r.description, contact: { id: r.contactId }, mobile: r.mobile, row: rowOf?.get(r.contactId) ?? null });
    }
  }
  return { recipients: estimate.recipients, price: estimate.price, invalid };
}

/**
 * Opens an execution whose audience is written and priced: 'running' ('done' when nobody could be texted)
 * with its counts, and counted on the campaign. The caller has checked the balance.
 */
export async function openExecution(
  tx: Tx,
  campaignId: string,
  jobId: string,
  audience: { recipients: number; invalid: CampaignInvalidEntry[] },
  now: Date,
): Promise<CampaignJobRow | null> {
  const nobody = audience.recipients === 0;
  const [job] = await tx
    .update(campaignJobs)
    .set({
      recipients: audience.recipients,
      invalid: audience.invalid,
      status: nobody ? 'done' : 'running',
      ...(nobody ? { finishedAt: now } : {}),
    })
    .where(eq(campaignJobs.id, jobId))
    .returning();
  if (!job) return null;
  await countExecution(tx, campaignId, jobId, now);
  return job;
}

/**
 * Finishes an execution whose recipients are written: prices them exactly as the sender will (leaving out
 * those it would refuse), requires the balance to cover it (402 'Insufficient Credit', the caller's
 * transaction rolls back), stores the counts and counts the run on the campaign.
 */
export async function completeExecution(
  tx: Tx,
  campaign: CampaignRow,
  jobId: string,
  message: CampaignMessage,
  audience: WrittenAudience,
  now: Date,
): Promise<CampaignJobRow> {
  const { accountId } = campaign;
  const pricer = new CampaignPricer(await loadAccountSendContext(tx, accountId), message);
  const priced = await priceRecipients(tx, pricer, jobId, sql`select contact_id from campaign_job_recipients where job_id = ${jobId}`, audience.rowOf);
  await requireBalance(tx, accountId, priced.price, now);
  const job = await openExecution(tx, campaign.id, jobId, { recipients: priced.recipients, invalid: [...audience.invalid, ...priced.invalid] }, now);
  if (!job) throw new Error('the execution vanished');
  return job;
}

/**
 * Creates an execution of a campaign already locked by the caller, in the caller's transaction, and answers
 * its job row (status 'running' with recipients to send, or 'done' when nobody could be texted).
 */
export async function createExecutionIn(tx: Tx, campaign: CampaignRow, input: ExecutionInput): Promise<CampaignJobRow> {
  const now = input.now ?? new Date();
  const jobId = await insertExecutionJob(tx, campaign, campaign, { userId: input.userId, now });
  let audience: WrittenAudience;
  if (campaign.trigger === 'FU') {
    if (input.rows === undefined) throw new AppError(400, 'bad_request', CAMPAIGN_FILE_REQUIRED_MESSAGE);
    audience = await fileAudience(tx, campaign, jobId, input.rows);
  } else {
    if (input.rows !== undefined) throw new AppError(400, 'bad_request', CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE);
    audience = await insertAudience(tx, campaign.accountId, jobId, storedFilters(campaign.filters));
  }
  return completeExecution(tx, campaign, jobId, campaignMessage(campaign), audience, now);
}

/** An execution updates the last execution and the count. */
async function countExecution(tx: Tx, campaignId: string, jobId: string, now: Date): Promise<void> {
  await tx
    .update(campaigns)
    .set({ executions: sql`${campaigns.executions} + 1`, lastJobId: jobId, lastExecutionAt: now })
    .where(eq(campaigns.id, campaignId));
}

/**
 * A scheduled run that could not start (the balance below the estimate, no number to send from): recorded
 * as a failed execution with the reason, and counted like any other, so the table shows it.
 */
export async function recordFailedExecution(tx: Tx, campaign: CampaignRow, description: string, now: Date): Promise<CampaignJobRow> {
  const id = uuidv7();
  const [job] = await tx
    .insert(campaignJobs)
    .values({
      id,
      accountId: campaign.accountId,
      campaignId: campaign.id,
      status: 'failed',
      template: campaign.template,
      media: campaign.media,
      phoneNumberFilter: campaign.phoneNumberFilter,
      templateId: campaign.templateId,
      reporting: campaign.reporting,
      errorDescription: description,
      createdAt: now,
      finishedAt: now,
    })
    .returning();
  if (!job) throw new Error('the execution insert returned nothing');
  await countExecution(tx, campaign.id, id, now);
  return job;
}

/** Hands a new execution to the background sender; failures are the caller's to log (the scheduler resumes it). */
export type EnqueueExecution = (campaignJobId: string) => Promise<void>;

/**
 * Locks the campaign for an execution and checks it may run: the account's (404 otherwise), active (409),
 * for a person, their e-mail verified (403), and the account's trial not run out (402 `trial_expired`).
 */
export async function lockExecutableCampaign(tx: Tx, accountId: string, campaignId: string, userId: string | null, now: Date): Promise<CampaignRow> {
  const campaign = await lockCampaign(tx, accountId, campaignId);
  if (!campaign) throw new AppError(404, 'not_found', `${CAMPAIGN_NOT_FOUND} was not found.`);
  if (!campaign.active) throw new AppError(409, 'conflict', CAMPAIGN_INACTIVE_MESSAGE);
  if (userId !== null) {
    const [user] = await tx.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
    requireVerifiedEmail({ emailVerifiedAt: user?.emailVerifiedAt ?? null });
  }
  await requireChargeableAccount(tx, accountId, now);
  return withShortLinks(tx, campaign, now);
}

/**
 * The campaign with its text's URLs shortened (when the account asks for it): an execution stores, prices and
 * sends that text, so its links are made once, not per batch or recipient.
 */
export async function withShortLinks(tx: Tx, campaign: CampaignRow, now: Date): Promise<CampaignRow> {
  const { text } = await shortenLinks(tx, campaign.accountId, campaign.template, 'send', now);
  return text === campaign.template ? campaign : { ...campaign, template: text };
}

/**
 * Creates an execution in one transaction (`create`) and, after the commit, queues its sending. A queue that
 * cannot take the job leaves the execution running: the scheduler's sweep queues it again.
 */
export async function startExecution(
  db: Db,
  enqueue: EnqueueExecution,
  create: (tx: Tx) => Promise<CampaignJobRow>,
  onEnqueueError: (error: unknown) => void,
): Promise<CampaignJobRow> {
  const job = await db.transaction(create);
  await queueExecution(job, enqueue, onEnqueueError);
  return job;
}

/** Queues the sending of an execution that is running; a queue that cannot take it is the sweep's to retry. */
export async function queueExecution(job: CampaignJobRow, enqueue: EnqueueExecution, onEnqueueError: (error: unknown) => void): Promise<void> {
  if (job.status !== 'running') return;
  try {
    await enqueue(job.id);
  } catch (error) {
    onEnqueueError(error);
  }
}
