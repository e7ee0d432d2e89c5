import { sql, type SQL } from 'drizzle-orm';
import { bulkUuidV7 } from './import/ids.js';
import type { MergeStrategy, PreparedContact } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/**
 * The write half of an import: a batch of prepared contacts into `contacts`, `list_members` and
 * `account_attributes`, together with the import's own bookkeeping, so a batch is written exactly once.
 */

export interface ImportedContact {
  readonly row: number;
  readonly contact: PreparedContact;
  /** The account's list the row names (resolved), or null. */
  readonly listId: string | null;
}

export interface BatchOptions {
  readonly accountId: string;
  readonly strategy: MergeStrategy;
  /** Fields the file feeds (a column or a default): with 'remove' these replace, even when empty. */
  readonly covers: { readonly firstName: boolean; readonly lastName: boolean; readonly email: boolean };
}

/**
 * The columns set on conflict: 'append' adds tags and attributes to the contact's, 'remove' replaces them,
 * 'core' leaves them as they are. Names and e-mail: a value the row gives replaces the stored one; with
 * 'remove' an empty cell of a column the file has clears it too.
 */
function updates(options: BatchOptions): SQL {
  const replace = options.strategy === 'remove';
  const text = (column: string, covered: boolean): SQL =>
    replace && covered
      ? sql.raw(`${column} = excluded.${column}`)
      : sql.raw(`${column} = case when excluded.${column} <> '' then excluded.${column} else contacts.${column} end`);
  const email =
    replace && options.covers.email
      ? sql.raw('email = excluded.email')
      : sql.raw('email = coalesce(excluded.email, contacts.email)');
  // Tags keep their first spelling (ignoring case) and their order, as the contact dialog keeps them.
  const tags = replace
    ? sql.raw('tags = excluded.tags')
    : sql.raw(
        `tags = coalesce((select array_agg(t order by o) from (select distinct on (lower(t)) t, o from ` +
          `unnest(contacts.tags || excluded.tags) with ordinality as u(t, o) order by lower(t), o) s), '{}')`,
      );
  const attributes = replace
    ? sql.raw('attributes = excluded.attributes')
    : sql.raw('attributes = contacts.attributes || excluded.attributes');
  return sql.join(
    [
      text('first_name', options.covers.firstName),
      text('last_name', options.covers.lastName),
      email,
      // 'core' touches the contact's own fields only.
      ...(options.strategy === 'core' ? [] : [tags, attributes]),
      sql.raw('mobile_country = excluded.mobile_country'),
      sql.raw('valid = excluded.valid'),
      sql.raw('error_description = excluded.error_description'),
      sql.raw('updated_at = excluded.updated_at'),
    ],
    sql`, `,
  );
}

/**
 * Writes the batch in ONE statement: the rows travel as one JSON parameter (no per-row round trip, no
 * parameter limit) and the contacts upsert, the list memberships, the new attribute names and the caller's
 * own change (`also`: the import's counters) are data-modifying CTEs of it, so the batch is atomic without a
 * transaction and costs one round trip.
 */
export async function writeContactBatch(
  q: Queryable,
  options: BatchOptions,
  batch: readonly ImportedContact[],
  also: SQL | null = null,
): Promise<void> {
  if (batch.length === 0) {
    if (also !== null) await q.execute(also);
    return;
  }
  const now = new Date().toISOString();
  // One order for every writer: two imports into one account lock rows in the same order, never a deadlock.
  const sorted = [...batch].sort((a, b) =>
    a.contact.mobile.number < b.contact.mobile.number ? -1 : a.contact.mobile.number > b.contact.mobile.number ? 1 : 0,
  );
  const names = new Set<string>();
  const rows = sorted.map(({ contact: c, listId }) => {
    for (const name of Object.keys(c.attributes)) names.add(name);
    return {
      id: bulkUuidV7(),
      fn: c.firstName,
      ln: c.lastName,
      mn: c.mobile.number,
      mc: c.mobile.country,
      em: c.email,
      at: c.attributes,
      tg: c.tags,
      va: c.mobile.valid,
      ed: c.mobile.valid ? null : c.mobile.errorDescription,
      // The list membership this row asks for: its id, the list, and whether the row opts in.
      mi: listId === null ? null : bulkUuidV7(),
      li: listId,
      oi: c.listOptIn,
    };
  });
  const withLists = sorted.some((c) => c.listId !== null);
  const ctes: SQL[] = [
    sql`r as (
      select * from json_to_recordset(${jsonRecords(rows)})
        as r(id uuid, fn text, ln text, mn text, mc text, em text, at jsonb, tg text[], va boolean, ed text,
             mi uuid, li uuid, oi boolean))`,
  ];
  if (names.size > 0) {
    ctes.push(sql`names as (
      insert into account_attributes (account_id, name)
      select ${options.accountId}::uuid, n from jsonb_array_elements_text(${JSON.stringify([...names])}::jsonb) as n
      on conflict do nothing)`);
  }
  if (also !== null) ctes.push(sql`also as (${also})`);
  const upsert = sql`
    insert into contacts (id, account_id, first_name, last_name, mobile_number, mobile_country, email, attributes, tags,
                          valid, error_description, created_at, updated_at)
    select r.id, ${options.accountId}::uuid, r.fn, r.ln, r.mn, r.mc, r.em, coalesce(r.at, '{}'::jsonb),
           coalesce(r.tg, '{}'::text[]), r.va, r.ed, ${now}::timestamptz, ${now}::timestamptz
    from r
    on conflict (account_id, mobile_number) do update set ${updates(options)}`;
  if (!withLists) {
    await q.execute(sql`with ${sql.join(ctes, sql`, `)} ${upsert}`);
    return;
  }
  ctes.push(sql`up as (${upsert} returning id, mobile_number)`);
  // A member keeps its consent: an opt-out is never undone by a file, and a file's opt-in upgrades only a
  // plain subscription (docs/decisions.md).
  await q.execute(sql`
    with ${sql.join(ctes, sql`, `)}
    insert into list_members (id, account_id, list_id, contact_id, status, opt_in_at, consent_source, created_at)
    select r.mi, ${options.accountId}::uuid, r.li, up.id, case when r.oi then 'optedIn' else 'subscribed' end,
           case when r.oi then ${now}::timestamptz end, 'import', ${now}::timestamptz
    from r join up on up.mobile_number = r.mn
    where r.li is not null
    on conflict (list_id, contact_id) do update
      set status = 'optedIn', opt_in_at = excluded.opt_in_at, consent_source = 'import'
      where list_members.status = 'subscribed' and excluded.status = 'optedIn'`);
}
