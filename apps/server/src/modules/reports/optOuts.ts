import { sql } from 'drizzle-orm';
import { optOutCsvColumns } from '@parley/shared';
import { csvLine } from '../contacts/index.js';
import type { Queryable } from '../../platform/db/client.js';
import { afterCursor, isoText, keysetPages, REPORT_BATCH_SIZE, type PagedRow } from './paging.js';

interface OptOutRow extends PagedRow {
  mobile: string;
  name: string;
  email: string;
  opted_out_at: string;
  source: string;
}

/** What an account-wide opt-out says in the source column: today only a STOP reply sets one. */
export const ACCOUNT_OPT_OUT_SOURCE = 'Account: STOP reply';

const row = (r: OptOutRow): string => csvLine([r.mobile, r.name, r.email, r.opted_out_at, r.source]);

/**
 * The opted-out report: first the contacts opted out of everything the account sends (STOP), then every list
 * membership opted out (source 'List: <name>', with where the change came from in brackets), each oldest
 * first. A contact opted out of the account and of a list appears once for each. Paged by keyset.
 */
export async function* optOutCsv(q: Queryable, accountId: string, batchSize: number = REPORT_BATCH_SIZE): AsyncGenerator<string> {
  yield csvLine(optOutCsvColumns);
  const accountWide = keysetPages<OptOutRow>(
    q,
    (after, limit) => sql`
      select c.mobile_number as mobile, trim(c.first_name || ' ' || c.last_name) as name, coalesce(c.email, '') as email,
        ${isoText(sql`c.opted_out_at`)} as opted_out_at, ${ACCOUNT_OPT_OUT_SOURCE}::text as source,
        c.opted_out_at::text as cursor_at, c.id::text as cursor_id
      from contacts c
      where c.account_id = ${accountId} and c.opted_out_at is not null and ${afterCursor(sql`c.opted_out_at`, sql`c.id`, after)}
      order by c.opted_out_at, c.id
      limit ${limit}`,
    batchSize,
  );
  for await (const page of accountWide) yield page.map(row).join('');
  const lists = keysetPages<OptOutRow>(
    q,
    (after, limit) => sql`
      select c.mobile_number as mobile, trim(c.first_name || ' ' || c.last_name) as name, coalesce(c.email, '') as email,
        ${isoText(sql`m.opt_out_at`)} as opted_out_at,
        'List: ' || l.name || coalesce(' (' || m.consent_source || ')', '') as source,
        m.opt_out_at::text as cursor_at, m.id::text as cursor_id
      from list_members m
      join contacts c on c.id = m.contact_id and c.account_id = ${accountId}
      join contact_lists l on l.id = m.list_id and l.account_id = ${accountId}
      where m.account_id = ${accountId} and m.status = 'optedOut' and m.opt_out_at is not null
        and ${afterCursor(sql`m.opt_out_at`, sql`m.id`, after)}
      order by m.opt_out_at, m.id
      limit ${limit}`,
    batchSize,
  );
  for await (const page of lists) yield page.map(row).join('');
}
