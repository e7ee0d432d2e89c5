import { sql } from 'drizzle-orm';
import { messagesCsvColumns } from '@parley/shared';
import { csvLine } from '../contacts/index.js';
import type { Queryable } from '../../platform/db/client.js';
import { afterCursor, isoText, keysetPages, REPORT_BATCH_SIZE, type PagedRow } from './paging.js';

interface MessageCsvRow extends PagedRow {
  date: string;
  direction: string;
  from_number: string;
  to_number: string;
  contact: string;
  body: string;
  status: string;
  error: string;
  segments: string;
  price: string;
}

/**
 * The detailed report: every message of the account, oldest first (by when it was created, UTC). `contact`
 * is the contact's name, or its number when it has none; `error` the carrier's code and text; `price` what
 * was charged (0 for inbound, and for a refunded message what it cost before the refund; USD, 4 decimals).
 * Paged by keyset on messages_account_idx, so memory stays flat for any number of messages; `tally.rows`
 * counts the messages written.
 */
export async function* messagesCsv(
  q: Queryable,
  accountId: string,
  tally: { rows: number } = { rows: 0 },
  batchSize: number = REPORT_BATCH_SIZE,
): AsyncGenerator<string> {
  yield csvLine(messagesCsvColumns);
  const pages = keysetPages<MessageCsvRow>(
    q,
    (after, limit) => sql`
      select ${isoText(sql`m.created_at`)} as date, m.direction, m.from_number, m.to_number,
        coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), c.mobile_number) as contact,
        m.body, m.status,
        trim(both ' ' from coalesce(m.error_code, '') || case when m.error_code is not null and m.error_description is not null then ': ' else '' end
          || coalesce(m.error_description, '')) as error,
        m.segments::text as segments, m.price::numeric(14, 4)::text as price,
        m.created_at::text as cursor_at, m.id::text as cursor_id
      from messages m
      join contacts c on c.id = m.contact_id and c.account_id = ${accountId}
      where m.account_id = ${accountId} and ${afterCursor(sql`m.created_at`, sql`m.id`, after)}
      order by m.created_at, m.id
      limit ${limit}`,
    batchSize,
  );
  for await (const page of pages) {
    tally.rows += page.length;
    yield page
      .map((r) => csvLine([r.date, r.direction, r.from_number, r.to_number, r.contact, r.body, r.status, r.error, r.segments, r.price]))
      .join('');
  }
}
