import { sql, type SQL } from 'drizzle-orm';
import { contactCsvColumns, type ContactOrderBy } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';
import { contactRowsByKeyset, listAttributeNames, type ContactFilters } from './queries.js';

/** Rows per query of a download: each batch of an unindexed order sorts the rest of the account once. */
const CSV_BATCH_SIZE = 5000;

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection). Every such cell is
 * defused, plain numbers too: an E.164 number then stays text with its '+' instead of becoming a number,
 * and the importer takes the quote off a mobile again.
 */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * One CSV cell: a value a spreadsheet would run as a formula is prefixed with a single quote, then the cell
 * is quoted when it holds a comma, quote, line break or edge spaces (RFC 4180).
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | null | undefined)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** An ISO 8601 UTC timestamp as text, made by PostgreSQL (no Date objects for 100,000 rows). */
const isoText = (column: SQL): SQL => sql`coalesce(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;

interface CsvRow extends Record<string, unknown> {
  first_name: string;
  last_name: string;
  mobile: string;
  country: string;
  email: string;
  tags: string;
  valid: string;
  error: string;
  blocked: string;
  opted_out: string;
  created: string;
  updated: string;
  attribute_values: (string | null)[];
}

/** What one CSV row needs, as text, in the order of contactCsvColumns, then the attribute values. */
function csvSelection(attributeNames: readonly string[]): SQL {
  const values =
    attributeNames.length === 0
      ? sql`array[]::text[]`
      : sql`array[${sql.join(
          attributeNames.map((name) => sql`${contacts.attributes} ->> ${name}`),
          sql`, `,
        )}]::text[]`;
  return sql`${contacts.firstName} as first_name, ${contacts.lastName} as last_name,
    ${contacts.mobileNumber} as mobile, ${contacts.mobileCountry} as country, coalesce(${contacts.email}, '') as email,
    array_to_string(${contacts.tags}, ',') as tags, ${contacts.valid}::text as valid,
    coalesce(${contacts.errorDescription}, '') as error, ${isoText(sql`${contacts.blockedAt}`)} as blocked,
    ${isoText(sql`${contacts.optedOutAt}`)} as opted_out, ${isoText(sql`${contacts.createdAt}`)} as created,
    ${isoText(sql`${contacts.updatedAt}`)} as updated, ${values} as attribute_values`;
}

const csvCellsOf = (row: CsvRow): (string | null)[] => [
  row.first_name,
  row.last_name,
  row.mobile,
  row.country,
  row.email,
  row.tags,
  row.valid,
  row.error,
  row.blocked,
  row.opted_out,
  row.created,
  row.updated,
  ...row.attribute_values,
];

/**
 * The contacts of the table's filters and order as CSV text, batch by batch: the fixed columns, then one
 * column per custom attribute of the account. Memory stays flat whatever the number of contacts.
 */
export async function* contactsCsv(
  q: Queryable,
  accountId: string,
  query: ContactFilters & { orderBy: ContactOrderBy },
): AsyncGenerator<string> {
  const attributeNames = await listAttributeNames(q, accountId);
  yield csvLine([...contactCsvColumns, ...attributeNames]);
  const batches = contactRowsByKeyset<CsvRow>(q, accountId, query, csvSelection(attributeNames), CSV_BATCH_SIZE);
  for await (const batch of batches) yield batch.map((row) => csvLine(csvCellsOf(row))).join('');
}
