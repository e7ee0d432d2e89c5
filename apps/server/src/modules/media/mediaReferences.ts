import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';

/*
 * Who still shows a stored file. A media item's `url` names the file by its id (the account media URL
 * `.../v1/accounts/{acc}/media/{fileId}`), so a holder is found by the id inside its media, whatever
 * PUBLIC_URL was when the URL was written. Only the file's own account counts: another account's users
 * cannot open it.
 */

/** Messages read per statement: each look at an account's history is many short statements, never one long one. */
export const MESSAGE_CHUNK = 5_000;

/** Below every id: where a walk in id order starts. */
export const NO_UUID = '00000000-0000-0000-0000-000000000000';

/** The ids as a set of rows `f(file)`, lower case as the uuid type prints them. */
const fileRows = (fileIds: readonly string[]): SQL =>
  sql`jsonb_array_elements_text(${JSON.stringify(fileIds.map((id) => id.toLowerCase()))}::jsonb) as f(file)`;

/**
 * A query of those of the files the account's templates, campaigns or campaign executions hold in their media:
 * to run on its own or inside a delete (where it is read in the delete's own snapshot).
 */
export function filesHeldOutsideMessages(accountId: string, fileIds: readonly string[]): SQL {
  return sql`select distinct f.file from ${fileRows(fileIds)}
    join (
      select media::text as media from templates where account_id = ${accountId} and media <> '[]'::jsonb
      union all
      select media::text from campaigns where account_id = ${accountId} and media <> '[]'::jsonb
      union all
      select media::text from campaign_jobs where account_id = ${accountId} and media <> '[]'::jsonb
    ) as holders on strpos(lower(holders.media), f.file) > 0`;
}

export async function heldOutsideMessages(q: Queryable, accountId: string, fileIds: readonly string[]): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await queryRows<{ file: string }>(q, filesHeldOutsideMessages(accountId, fileIds));
  return new Set(rows.map((r) => r.file));
}

/**
 * For each of the files a message of the account holds in its media, one such message: the account's
 * messages written from `from` on are read in order, MESSAGE_CHUNK at a time, until every file is found or
 * the history ends. Throws when `options.signal` is aborted midway (a file not yet found is not known to be free).
 */
export async function findMessageReferences(
  q: Queryable,
  accountId: string,
  fileIds: readonly string[],
  from: Date,
  options: { signal?: AbortSignal; chunk?: number } = {},
): Promise<Map<string, string>> {
  const chunk = options.chunk ?? MESSAGE_CHUNK;
  const found = new Map<string, string>();
  let wanted = fileIds.map((id) => id.toLowerCase());
  // Where the last chunk ended, as the database prints the time (microseconds kept).
  let at = from.toISOString();
  let id = NO_UUID;
  while (wanted.length > 0) {
    options.signal?.throwIfAborted();
    const rows = await queryRows<{ file: string; message: string | null; n: number; last_at: string | null; last_id: string | null }>(
      q,
      sql`with chunk as materialized (
            select id, created_at, media from messages
             where account_id = ${accountId} and created_at >= ${at}::timestamptz
               and (created_at, id) > (${at}::timestamptz, ${id}::uuid)
             order by created_at, id
             limit ${chunk}
          ), last as (select created_at, id from chunk order by created_at desc, id desc limit 1)
          select f.file,
                 (select c.id from chunk c where c.media <> '[]'::jsonb and strpos(lower(c.media::text), f.file) > 0 limit 1) as message,
                 (select count(*)::int from chunk) as n,
                 (select created_at::text from last) as last_at,
                 (select id from last) as last_id
            from ${fileRows(wanted)}`,
    );
    for (const row of rows) if (row.message !== null) found.set(row.file, row.message);
    const end = rows[0];
    if (end === undefined || end.last_at === null || end.last_id === null || end.n < chunk) break;
    at = end.last_at;
    id = end.last_id;
    wanted = wanted.filter((file) => !found.has(file));
  }
  return found;
}
