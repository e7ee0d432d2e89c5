import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  emptyCampaignFilters,
  RESEND_NOTHING_MESSAGE,
  RESEND_RUNNING_MESSAGE,
  type CampaignInvalidReason,
} from '@parley/shared';
import { arrayLiteral, queryRows, type Db, type Queryable, type Tx } from '../../platform/db/client.js';
import { campaignJobs, contacts, type CampaignJobRow, type CampaignRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { consentDescription, exclusionReason } from './campaignAudience.js';
import {
  CAMPAIGN_NOT_FOUND,
  completeExecution,
  insertExecutionJob,
  lockExecutableCampaign,
  startExecution,
  type EnqueueExecution,
  type WrittenAudience,
} from './campaignExecutor.js';
import { EXECUTION_NOT_FOUND } from './campaignExecutions.js';
import { storedFilters } from './campaignStored.js';
import { isUuid } from '../../platform/db/ids.js';

/*
 * Resending the failed messages of an execution (the job report's 'Resend Failed'): a new execution of the
 * same campaign, with the text, media and sender of that execution, whose recipients are its recipients
 * whose message failed or was not delivered, or who were not sent when their turn came (the balance ran
 * out, the number went...). Those left out when it was executed (consent, the file's rows) are not among
 * them. It follows execution's rules: the campaign active, the person's e-mail verified, consent checked
 * again, the estimate covered by the balance (402), and it is counted as a run of the campaign.
 *
 * A recipient is not texted twice: one that a later execution of the campaign with the same text and media
 * reached (a message not failed) or is about to reach (pending in a running one) is no longer counted, so a
 * second press of the button, or a resend of an older execution, finds nothing left to send. Nor is one
 * whose contact was removed. When consent now leaves out every candidate, there is nothing to resend (400);
 * otherwise those it leaves out are listed on the new execution, as execution lists them.
 */

/** An execution's failed recipients, its campaign's consent settings, and the later executions alike. */
interface ResendScope {
  accountId: string;
  jobId: string;
  campaign: Pick<CampaignRow, 'accountId' | 'trigger' | 'filters'>;
  /** Not sent when their turn came, or their message failed or was not delivered, in position order. */
  failed: { position: number; contact_id: string }[];
  /** Later executions of the campaign with the same text and media (resends of it, or runs alike). */
  later: { id: string; running: boolean }[];
}

/**
 * The scope of a resend of the account's execution; null for another account's, an unknown or a
 * campaign-less one. The failed recipients are read first, through the execution's recipient key and
 * messages_job_idx: the statements after take them as values, so the planner knows how many there are (a
 * failed status is rare among all messages, and its estimate would be far too low for a large execution).
 */
async function resendScope(q: Queryable, accountId: string, jobId: string): Promise<ResendScope | null> {
  if (!isUuid(jobId)) return null;
  const [found] = await queryRows<{ trigger: CampaignRow['trigger']; filters: CampaignRow['filters'] }>(
    q,
    sql`select c.trigger, c.filters from campaign_jobs j join campaigns c on c.id = j.campaign_id and c.account_id = j.account_id
         where j.id = ${jobId} and j.account_id = ${accountId}`,
  );
  if (!found) return null;
  const failed = await queryRows<{ position: number; contact_id: string }>(
    q,
    sql`select r.position, r.contact_id from campaign_job_recipients r
         where r.job_id = ${jobId} and r.message_id is null and r.error is not null
        union all
        select r.position, r.contact_id from messages m
          join campaign_job_recipients r on r.job_id = ${jobId} and r.message_id = m.id
         where m.job_id = ${jobId} and m.account_id = ${accountId} and m.status in ('failed', 'undelivered')
        order by 1`,
  );
  // Through campaign_jobs_campaign_idx: a campaign has few executions.
  const later =
    failed.length === 0
      ? []
      : await queryRows<{ id: string; running: boolean }>(
          q,
          sql`select l.id, l.status = 'running' as running
                from campaign_jobs j join campaign_jobs l on l.campaign_id = j.campaign_id and l.account_id = j.account_id
               where j.id = ${jobId} and j.account_id = ${accountId}
                 and l.created_at >= j.created_at and l.id <> j.id and l.template = j.template and l.media = j.media`,
        );
  return { accountId, jobId, campaign: { accountId, ...found }, failed, later };
}

/**
 * The failed recipients (position, contact_id, and data when asked) a resend texts, consent aside: less those
 * a later execution alike reached (a message not failed, through messages_contact_idx or messages_job_idx)
 * or is about to reach (pending in a running one).
 */
function resendCandidates(scope: ResendScope, withData: boolean): SQL {
  const { accountId, jobId } = scope;
  const reached = scope.later.map((l) => l.id);
  const running = scope.later.filter((l) => l.running).map((l) => l.id);
  const notReached =
    reached.length === 0
      ? sql``
      : sql`and not exists (select 1 from messages lm
                             where lm.contact_id = f.contact_id and lm.account_id = ${accountId}
                               and lm.job_id = any(${arrayLiteral(reached)}::uuid[]) and lm.status not in ('failed', 'undelivered'))`;
  const notPending =
    running.length === 0
      ? sql``
      : sql`and not exists (select 1 from campaign_job_recipients lr
                             where lr.job_id = any(${arrayLiteral(running)}::uuid[]) and lr.message_id is null and lr.error is null
                               and lr.contact_id = f.contact_id)`;
  const data = withData
    ? sql`, (select r.data from campaign_job_recipients r where r.job_id = ${jobId} and r.position = f.position) as data`
    : sql``;
  return sql`
    select f.position, f.contact_id ${data}
      from unnest(${arrayLiteral(scope.failed.map((f) => f.position))}::int[],
                  ${arrayLiteral(scope.failed.map((f) => f.contact_id))}::uuid[]) as f(position, contact_id)
     where true ${notReached} ${notPending}`;
}

/**
 * Each candidate's contact (gone: no row) with why consent leaves it out now (null: it may be texted), as
 * execution decides, with the campaign's lists for list consent. One key lookup per candidate (the LIMIT
 * keeps it a lateral lookup): the consent test's selectivity is beyond the planner, which would otherwise
 * read every contact of the account.
 */
function candidateContacts(scope: ResendScope, withData: boolean): SQL {
  const { campaign } = scope;
  const reason = exclusionReason(campaign.accountId, campaign.trigger === 'FU' ? emptyCampaignFilters() : storedFilters(campaign.filters));
  return sql`
    select f.*, c.mobile, c.reason, c.error
      from (${resendCandidates(scope, withData)}) f
     cross join lateral (
       select ${contacts.mobileNumber} as mobile, ${reason} as reason, ${contacts.errorDescription} as error
         from ${contacts} where ${contacts.id} = f.contact_id and ${contacts.accountId} = ${scope.accountId} limit 1) c`;
}

async function countCandidates(q: Queryable, scope: ResendScope): Promise<number> {
  if (scope.failed.length === 0) return 0;
  const [row] = await queryRows<{ n: number }>(
    q,
    sql`select count(*)::int as n from (${candidateContacts(scope, false)}) s where s.reason is null`,
  );
  return row?.n ?? 0;
}

/**
 * How many recipients of the execution a resend would text now: the candidates whose contact is still there
 * and consent allows; 0 for another account's or an unknown execution.
 */
export async function countResendable(q: Queryable, accountId: string, jobId: string): Promise<number> {
  const scope = await resendScope(q, accountId, jobId);
  return scope === null ? 0 : countCandidates(q, scope);
}

/**
 * Writes the resend's recipients (keeping their positions, so a file's rows keep their numbers) and answers
 * those consent now leaves out, with their reasons.
 */
async function insertResendAudience(tx: Tx, scope: ResendScope, jobId: string): Promise<WrittenAudience> {
  const isFile = scope.campaign.trigger === 'FU';
  const candidates = candidateContacts(scope, true);
  const [inserted] = await queryRows<{ n: number }>(
    tx,
    sql`with ins as (
          insert into campaign_job_recipients (job_id, position, contact_id, data)
          select ${jobId}::uuid, s.position, s.contact_id, s.data from (${candidates}) s where s.reason is null
          returning 1)
        select count(*)::int as n from ins`,
  );
  const left = await queryRows<{ contact_id: string; mobile: string; reason: CampaignInvalidReason; error: string | null; position: number }>(
    tx,
    sql`select s.contact_id, s.mobile, s.reason, s.error, s.position from (${candidates}) s where s.reason is not null order by s.position`,
  );
  return {
    recipients: inserted?.n ?? 0,
    invalid: left.map((row) => ({
      reason: row.reason,
      description: consentDescription(row.reason, row.error),
      contact: { id: row.contact_id },
      mobile: row.mobile,
      row: isFile ? row.position : null,
    })),
    ...(isFile ? { rowOf: new Map(scope.failed.map((f) => [f.contact_id, f.position])) } : {}),
  };
}

async function sourceJob(tx: Tx, accountId: string, jobId: string): Promise<CampaignJobRow> {
  if (!isUuid(jobId)) throw notFound(EXECUTION_NOT_FOUND);
  const [found] = await tx
    .select()
    .from(campaignJobs)
    .where(and(eq(campaignJobs.accountId, accountId), eq(campaignJobs.id, jobId), ne(campaignJobs.status, 'preparing')))
    .limit(1);
  if (!found) throw notFound(EXECUTION_NOT_FOUND);
  return found;
}

export interface ResendInput {
  accountId: string;
  /** The execution whose failed messages are sent again. */
  jobId: string;
  /** The person resending (e-mail verified); null for an API client. */
  userId: string | null;
  now?: Date;
}

/**
 * POST .../reports/campaign/{id}/resend: 404 for another account's execution, 409 while it is still
 * sending, the campaign's execution rules (404 removed, 409 inactive, 403 unverified e-mail), 400 when
 * nobody is left to resend to, then the new execution exactly as an execution is written (402 when the
 * balance does not cover it), its sending queued after the commit.
 */
export async function resendFailedMessages(
  db: Db,
  enqueue: EnqueueExecution,
  input: ResendInput,
  onEnqueueError: (error: unknown) => void,
): Promise<CampaignJobRow> {
  return startExecution(
    db,
    enqueue,
    async (tx) => {
      const now = input.now ?? new Date();
      const source = await sourceJob(tx, input.accountId, input.jobId);
      if (source.campaignId === null) throw notFound(CAMPAIGN_NOT_FOUND);
      const campaign = await lockExecutableCampaign(tx, input.accountId, source.campaignId, input.userId, now);
      if (source.status === 'running') throw new AppError(409, 'conflict', RESEND_RUNNING_MESSAGE);
      const scope = await resendScope(tx, input.accountId, source.id);
      if (scope === null) throw notFound(CAMPAIGN_NOT_FOUND);
      if ((await countCandidates(tx, scope)) === 0) throw new AppError(400, 'bad_request', RESEND_NOTHING_MESSAGE);
      const jobId = await insertExecutionJob(tx, campaign, source, { userId: input.userId, now });
      const audience = await insertResendAudience(tx, scope, jobId);
      return completeExecution(tx, campaign, jobId, { template: source.template, hasMedia: source.media.length > 0 }, audience, now);
    },
    onEnqueueError,
  );
}
