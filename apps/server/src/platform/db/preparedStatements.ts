import { createHash } from 'node:crypto';

/*
 * Named prepared statements for the API's hottest statements (docs/configuration.md,
 * DATABASE_PREPARED_STATEMENTS): a connection parses and plans such a statement once and then only binds
 * it, instead of parsing and planning it at every request. The name is the call site's label and a hash of
 * the statement's text, so a call site whose statement takes another shape (another filter, order or
 * viewer) gets another name: one name never stands for two texts, which the driver refuses.
 */

let named = true;

/** Whether hot statements are sent named (the default) or unnamed, as every other statement is. */
export function usePreparedStatements(on: boolean): void {
  named = on;
}

/** A query of the builder: its text, and it prepared under a name. */
interface Preparable<T> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<T> };
}

const nameOf = (label: string, text: string): string => `${label}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;

/** Runs the query as a named prepared statement of `label`, or unnamed when they are turned off. */
export function runPrepared<T>(label: string, query: Preparable<T>): Promise<T> {
  // An empty name is the driver's unnamed statement: parsed and planned each time.
  return query.prepare(named ? nameOf(label, query.toSQL().sql) : '').execute();
}
