import { sql, type SQL } from 'drizzle-orm';
import {
  emptyInvalidCounts,
  type CampaignFilters,
  type CampaignInvalidCounts,
  type CampaignInvalidEntry,
  type CampaignInvalidReason,
} from '@parley/shared';
import { contactConditions } from '../contacts/index.js';
import {
  CONTACT_BLOCKED_MESSAGE,
  CONTACT_INVALID_MESSAGE,
  CONTACT_OPTED_OUT_MESSAGE,
} from '../contacts/index.js';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';

/*
 * The audience of a Manual or Scheduled campaign, resolved in SQL (never a row at a time):
 *
 * - Each kind of filter that is given must hold (AND across kinds): the contact carries every tag (the
 *   contact table's tag filter, through the GIN index), every attribute comparison holds (equals, does not
 *   equal, contains; ignoring case; a contact without the attribute does not equal anything), the contact is
 *   on at least one of the lists, and it is one of the chosen contacts. A kind left empty asks nothing, so
 *   no filter at all is every contact of the account.
 * - Consent then leaves out, in this order of reasons: blocked, opted out of the account (STOP), opted out
 *   of every chosen list it is on (a 'subscribed' or 'optedIn' membership of any chosen list is consent),
 *   an invalid number. Each left-out contact is counted by its reason.
 */

const idList = (ids: readonly string[]): SQL => sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;

/** The contacts the filters select, consent aside (a WHERE over `contacts`). */
export function audienceMatch(accountId: string, filters: CampaignFilters): SQL {
  const parts: SQL[] = [contactConditions(accountId, { tags: filters.tags, attribute: filters.attributes })];
  if (filters.lists.length > 0) {
    parts.push(sql`exists (select 1 from list_members lm where lm.contact_id = ${contacts.id} and lm.account_id = ${accountId}
                      and lm.list_id in ${idList(filters.lists)})`);
  }
  if (filters.contacts.length > 0) parts.push(sql`${contacts.id} in ${idList(filters.contacts)}`);
  return sql.join(parts, sql` and `);
}

/** Why a selected contact is left out (null: it is texted), as SQL over `contacts`. */
export function exclusionReason(accountId: string, filters: CampaignFilters): SQL {
  const listConsent =
    filters.lists.length === 0
      ? sql``
      : sql`when not exists (select 1 from list_members lm where lm.contact_id = ${contacts.id} and lm.account_id = ${accountId}
                               and lm.list_id in ${idList(filters.lists)} and lm.status <> 'optedOut') then 'listOptedOut'`;
  return sql`(case when ${contacts.blockedAt} is not null then 'blocked'
                   when ${contacts.optedOutAt} is not null then 'optedOut'
                   ${listConsent}
                   when not ${contacts.valid} then 'invalidNumber'
                   else null end)`;
}

const consentDescriptions: Partial<Record<CampaignInvalidReason, string>> = {
  blocked: CONTACT_BLOCKED_MESSAGE,
  optedOut: CONTACT_OPTED_OUT_MESSAGE,
  listOptedOut: 'This contact has opted out of the list.',
  invalidNumber: CONTACT_INVALID_MESSAGE,
};

/** The words of a consent reason; an invalid number adds the contact's own error. */
export function consentDescription(reason: CampaignInvalidReason, errorDescription: string | null): string {
  const base = consentDescriptions[reason] ?? reason;
  return reason === 'invalidNumber' && errorDescription !== null ? `${base} ${errorDescription}` : base;
}

/** A selected contact consent leaves out. */
interface LeftOut extends Record<string, unknown> {
  id: string;
  mobile: string;
  reason: CampaignInvalidReason;
  error: string | null;
}

const leftOutEntry = (row: LeftOut): CampaignInvalidEntry => ({
  reason: row.reason,
  description: consentDescription(row.reason, row.error),
  contact: { id: row.id },
  mobile: row.mobile,
  row: null,
});

/**
 * Writes the audience into `campaign_job_recipients` (in contact id order, so oldest contacts first) in one
 * statement, and answers how many went in and the contacts left out with their reasons.
 */
export async function insertAudience(
  q: Queryable,
  accountId: string,
  jobId: string,
  filters: CampaignFilters,
): Promise<{ recipients: number; invalid: CampaignInvalidEntry[] }> {
  const match = audienceMatch(accountId, filters);
  const reason = exclusionReason(accountId, filters);
  const [inserted] = await queryRows<{ n: number }>(
    q,
    sql`with ins as (
          insert into campaign_job_recipients (job_id, position, contact_id)
          select ${jobId}::uuid, row_number() over (order by ${contacts.id}), ${contacts.id}
            from ${contacts} where ${match} and ${reason} is null
          returning 1)
        select count(*)::int as n from ins`,
  );
  const left = await queryRows<LeftOut>(
    q,
    sql`select * from (
          select ${contacts.id} as id, ${contacts.mobileNumber} as mobile, ${reason} as reason,
                 ${contacts.errorDescription} as error
            from ${contacts} where ${match}) s
        where s.reason is not null order by s.id`,
  );
  return {
    recipients: inserted?.n ?? 0,
    invalid: left.map(leftOutEntry),
  };
}

/** One chunk of an audience written by writeAudienceChunk. */
export interface AudienceChunk {
  /** Recipients written, at positions after the chunk's first. */
  written: number;
  /** The last contact read (sent to or left out); null when the audience had no more. */
  last: string | null;
  /** Whether fewer contacts than asked were left: the audience is written. */
  finished: boolean;
  invalid: CampaignInvalidEntry[];
}

/**
 * Writes the next `limit` contacts of the audience after contact `after` (in contact id order, as
 * insertAudience does) at positions after `position`, in one statement: what a transaction of its own
 * writes while an execution is prepared in chunks (campaignPreparation.ts).
 */
export async function writeAudienceChunk(
  q: Queryable,
  input: { accountId: string; jobId: string; filters: CampaignFilters; after: string | null; position: number; limit: number },
): Promise<AudienceChunk> {
  const { accountId, filters } = input;
  const after = input.after === null ? sql`true` : sql`${contacts.id} > ${input.after}::uuid`;
  const [row] = await queryRows<{ written: number; read: number; last: string | null; left: LeftOut[] }>(
    q,
    sql`with sel as (
          select ${contacts.id} as id, ${contacts.mobileNumber} as mobile, ${exclusionReason(accountId, filters)} as reason,
                 ${contacts.errorDescription} as error
            from ${contacts} where ${audienceMatch(accountId, filters)} and ${after}
           order by ${contacts.id} limit ${input.limit}),
        ins as (
          insert into campaign_job_recipients (job_id, position, contact_id)
          select ${input.jobId}::uuid, ${input.position}::int + row_number() over (order by id), id from sel where reason is null
          returning 1)
        select (select count(*)::int from ins) as written, (select count(*)::int from sel) as read,
               (select id from sel order by id desc limit 1) as last,
               (select coalesce(jsonb_agg(jsonb_build_object('id', id, 'mobile', mobile, 'reason', reason, 'error', error) order by id), '[]'::jsonb)
                  from sel where reason is not null) as left`,
  );
  if (!row) throw new Error('the audience chunk answered nothing');
  return { written: row.written, last: row.last, finished: row.read < input.limit, invalid: row.left.map(leftOutEntry) };
}

/** The audience as SQL selecting the ids of the contacts that would be texted (for a preview). */
export function audienceIds(accountId: string, filters: CampaignFilters): SQL {
  return sql`select ${contacts.id} from ${contacts} where ${audienceMatch(accountId, filters)} and ${exclusionReason(accountId, filters)} is null`;
}

/** How many selected contacts consent leaves out, by reason (for a preview). */
export async function countExclusions(q: Queryable, accountId: string, filters: CampaignFilters): Promise<CampaignInvalidCounts> {
  const rows = await queryRows<{ reason: CampaignInvalidReason; n: number }>(
    q,
    sql`select s.reason, count(*)::int as n from (
          select ${exclusionReason(accountId, filters)} as reason from ${contacts} where ${audienceMatch(accountId, filters)}) s
        where s.reason is not null group by s.reason`,
  );
  const counts = emptyInvalidCounts();
  for (const row of rows) counts[row.reason] += row.n;
  return counts;
}
