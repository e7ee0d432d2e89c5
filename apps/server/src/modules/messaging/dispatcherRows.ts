import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { messages, type MessageRow } from '../../platform/db/schema/index.js';

const messageColumns = Object.entries(getTableColumns(messages));

/**
 * A message row from a raw statement's `RETURNING m.*` (snake_case names, driver values) in the shape
 * Drizzle's own queries give. Set-based statements of the engine are raw SQL (json_to_recordset joins,
 * CTEs), so their rows come through here.
 */
export function messageFromRaw(raw: Record<string, unknown>): MessageRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of messageColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as MessageRow;
}

/** A timestamp parameter, typed for PostgreSQL. */
export const at = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;
