import { sql, type SQL } from 'drizzle-orm';
import {
  emptyInvalidCounts,
  type CampaignFilters,
  type CampaignInvalidCounts,
  type CampaignInvalidEntry,
  type CampaignInvalidReason,
} from '@parley/shared';
import { contactConditions } from '../contacts/queries.js';
import {
  CONTACT_BLOCKED_MESSAGE,
  CONTACT_INVALID_MESSAGE,
  CONTACT_OPTED_OUT_MESSAGE,
} from '../contacts/reachability.js';
import { queryRows, type Queryable } from '../db/client.js';
import { contacts } from '../db/schema/index.js';

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
  const left = await queryRows<{ id: string; mobile: string; reason: CampaignInvalidReason; error: string | null }>(
    q,
    sql`select * from (
          select ${contacts.id} as id, ${contacts.mobileNumber} as mobile, ${reason} as reason,
                 ${contacts.errorDescription} as error
            from ${contacts} where ${match}) s
        where s.reason is not null order by s.id`,
  );
  return {
    recipients: inserted?.n ?? 0,
    invalid: left.map((row) => ({
      reason: row.reason,
      description: consentDescription(row.reason, row.error),
      contact: { id: row.id },
      mobile: row.mobile,
      row: null,
    })),
  };
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
