import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { AppError } from '../errors.js';

/**
 * Keyset paging (docs/api.md, "Paging"): a page after a cursor starts where the last one ended, found by
 * the index rather than by counting rows, so the millionth row is as quick to reach as the first and a row
 * added meanwhile never shifts a page. A list is ordered by one sort key and its id, which breaks ties.
 */
export interface KeysetOrder {
  /** The sort key as SQL, and its type: the cursor carries it as text and is cast back to it. */
  key: SQL;
  type: SQL;
  direction: 'asc' | 'desc';
  id: AnyColumn;
  /** What a key of this type looks like as text: a cursor whose key is not is refused, not cast. */
  keyText: RegExp;
}

/** PostgreSQL's text of a timestamptz (the session's zone as an offset), and of a boolean; any text is a text. */
export const KEY_TEXT = {
  // PostgreSQL text holds no NUL (U+0000): a key with one cannot be a stored value.
  // eslint-disable-next-line no-control-regex
  text: /^[^\u0000]*$/,
  boolean: /^(true|false)$/,
  timestamptz: /^(-?infinity|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2})$/,
} as const;

export interface KeysetPosition {
  key: string;
  id: string;
}

export const CURSOR_INVALID_MESSAGE = 'after: Not a cursor of this list: ask for its first page again';

/** The rows after `position` in the order: `(key, id) > (…)` ascending, `<` descending. */
export function keysetAfter(order: KeysetOrder, position: KeysetPosition): SQL {
  const past = order.direction === 'asc' ? sql.raw('>') : sql.raw('<');
  return sql`(${order.key}, ${order.id}) ${past} (${position.key}::${order.type}, ${position.id}::uuid)`;
}

/** What a page selects beside its rows to make the next cursor: the sort key as text. */
export const keysetSortText = (order: KeysetOrder): SQL<string> => sql<string>`(${order.key})::text`;

/** An opaque cursor for the row, bound to the list and order it came from (`scope`). */
export function encodeCursor(scope: string, position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([scope, position.key, position.id]), 'utf8').toString('base64url');
}

const uuidText = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The position a cursor names; a 400 for one that is malformed or was made for another list or order. */
export function decodeCursor(scope: string, order: KeysetOrder, cursor: string): KeysetPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError(400, 'validation_failed', CURSOR_INVALID_MESSAGE);
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw new AppError(400, 'validation_failed', CURSOR_INVALID_MESSAGE);
  const [madeFor, key, id] = parsed as unknown[];
  if (madeFor !== scope || typeof key !== 'string' || typeof id !== 'string' || !uuidText.test(id) || key.length > 400 || !order.keyText.test(key)) {
    throw new AppError(400, 'validation_failed', CURSOR_INVALID_MESSAGE);
  }
  return { key, id };
}
