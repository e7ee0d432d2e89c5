import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client.js';

/*
 * Autovacuum's vacuum part for the embedded database (single-user mode has no autovacuum, and its
 * statistics counters, dead rows included, stay at zero). Every update leaves the row's old version behind:
 * a campaign leaves three a message. Until VACUUM marks that space free, new rows go to new pages, so the
 * tables grow about fourfold and each scan reads past the dead versions. Without counters to say how many
 * rows are dead, the size says it: a table grown by a fifth since this process last vacuumed it is vacuumed
 * again, as is every table of at least a megabyte the first time the process finds the database quiet.
 *
 * VACUUM holds the one session while it runs (about 0.3 s for a table of 100,000 messages with 300,000 dead
 * versions and its eight indexes; milliseconds for one with nothing to do), so the caller runs it only while
 * nothing is being sent (statisticsKeeper.ts).
 */

/** Grown by this factor since the last VACUUM of this process. */
const GROWTH = 1.2;
/** Smaller tables are left alone: their dead rows cost little, and their pages are reused once freed. */
const MIN_PAGES = 128;

export interface TableSize {
  name: string;
  pages: number;
}

/** Tables of at least MIN_PAGES, as quoted names with their size in pages. */
export async function tableSizes(db: Db): Promise<TableSize[]> {
  const rows = await queryRows<{ name: string; pages: number }>(
    db,
    sql`select format('%I.%I', n.nspname, c.relname) as name,
               (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
           and pg_relation_size(c.oid) >= ${MIN_PAGES}::bigint * current_setting('block_size')::int
         order by 2 desc`,
  );
  return rows;
}

/** Whether a table of `pages` pages is due, given its size after this process last vacuumed it. */
export function dueForVacuum(pages: number, pagesAtLastVacuum: number | undefined): boolean {
  if (pagesAtLastVacuum === undefined) return pages >= MIN_PAGES;
  return pages >= pagesAtLastVacuum * GROWTH && pages >= pagesAtLastVacuum + MIN_PAGES;
}

/**
 * Vacuums the tables due (dueForVacuum), each its own statement, and records their sizes after it in
 * `vacuumed` (the caller keeps it between rounds). Stops early, before the next table, when `stillQuiet`
 * answers false. Answers the names vacuumed.
 */
export async function vacuumGrownTables(
  db: Db,
  vacuumed: Map<string, number>,
  stillQuiet: () => Promise<boolean>,
): Promise<string[]> {
  const done: string[] = [];
  for (const table of await tableSizes(db)) {
    if (!dueForVacuum(table.pages, vacuumed.get(table.name))) continue;
    if (done.length > 0 && !(await stillQuiet())) break;
    // The name comes from pg_class through format('%I'): quoted, never user input. VACUUM runs outside a
    // transaction: a statement of its own.
    await db.execute(sql.raw(`vacuum ${table.name}`));
    const [after] = await queryRows<{ pages: number }>(
      db,
      sql`select (pg_relation_size(${table.name}::regclass) / current_setting('block_size')::int)::int as pages`,
    );
    vacuumed.set(table.name, after?.pages ?? table.pages);
    done.push(table.name);
  }
  return done;
}
