import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';

/** Rows per query of a report: memory stays flat whatever the size of the account. */
export const REPORT_BATCH_SIZE = 5000;

/**
 * Where the previous page ended: the ordering timestamp as PostgreSQL wrote it (text keeps its microseconds,
 * which a JavaScript Date would lose) and the row id that breaks ties.
 */
export interface ReportCursor {
  at: string;
  id: string;
}

export interface PagedRow extends Record<string, unknown> {
  cursor_at: string;
  cursor_id: string;
}

/** `(column, id) > cursor`, with the column's own bound first so an index on (account, column) is used. */
export const afterCursor = (column: SQL, id: SQL, after: ReportCursor | null): SQL =>
  after === null
    ? sql`true`
    : sql`${column} >= ${after.at}::timestamptz and (${column}, ${id}) > (${after.at}::timestamptz, ${after.id}::uuid)`;

/**
 * The pages of a keyset-ordered query: `page(after, limit)` must order by (cursor_at, cursor_id) and select
 * both as text. Each page is its own statement, so no transaction or connection is held between pages.
 */
export async function* keysetPages<T extends PagedRow>(
  q: Queryable,
  page: (after: ReportCursor | null, limit: number) => SQL,
  limit: number = REPORT_BATCH_SIZE,
): AsyncGenerator<T[]> {
  let after: ReportCursor | null = null;
  for (;;) {
    const rows: T[] = await queryRows<T>(q, page(after, limit));
    if (rows.length > 0) yield rows;
    const last: T | undefined = rows.at(-1);
    if (rows.length < limit || last === undefined) return;
    after = { at: last.cursor_at, id: last.cursor_id };
  }
}

/** An ISO 8601 UTC timestamp as text, made by PostgreSQL; '' for null. */
export const isoText = (column: SQL): SQL =>
  sql`coalesce(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;
