import { sql, type SQL } from 'drizzle-orm';

/**
 * Rows as one bound value for `json_to_recordset(...)`: a batch of a thousand rows is one parameter however
 * many columns it has, and the statement's text stays the same whatever the batch size. Bound as `json`, not
 * `jsonb`: PostgreSQL reads json text as it unpacks it, where jsonb first builds (and key-sorts) the whole
 * document; in a 500-row insert of webhook deliveries that parse was 40% of the statement's time
 * (docs/decisions.md, "Bulk rows are bound as json").
 */
export function jsonRecords(rows: readonly (object | string)[]): SQL {
  return sql`${JSON.stringify(rows)}::json`;
}
