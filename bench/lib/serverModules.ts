import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths.js';

/** The built server, whose modules a benchmark loads for its set-up and checks. */
export const serverDist = path.join(repoRoot, 'apps', 'server', 'dist');

/** Imports a built module by its path segments; the caller names the parts it uses. */
export async function loadModule<T>(...segments: string[]): Promise<T> {
  return (await import(pathToFileURL(path.join(...segments)).href)) as T;
}

/** What a benchmark needs of the server's `Database` (platform/db/client.ts): the bare driver beside drizzle. */
export interface BenchDatabase {
  readonly kind: 'pglite' | 'postgres';
  readonly pool: SqlDriver;
  readonly db: unknown;
  close(): Promise<void>;
}

export interface SqlDriver {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseModules {
  openDatabase(options: { databaseUrl: string | null; dataDir: string; poolMax: number }): Promise<BenchDatabase>;
  migrateDatabase(database: BenchDatabase): Promise<void>;
}

export async function databaseModules(): Promise<DatabaseModules> {
  const client = await loadModule<Pick<DatabaseModules, 'openDatabase'>>(serverDist, 'platform', 'db', 'client.js');
  const migrate = await loadModule<Pick<DatabaseModules, 'migrateDatabase'>>(serverDist, 'platform', 'db', 'migrate.js');
  return { ...client, ...migrate };
}

export function driverOf(database: BenchDatabase): SqlDriver {
  return database.pool;
}

export async function rowsOf(database: BenchDatabase, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return (await driverOf(database).query(text, values)).rows;
}

/** Runs `insert into <table> (<columns>) values …` for the rows, `perStatement` rows a statement. */
export async function insertRows(
  database: BenchDatabase,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  perStatement = 1000,
): Promise<void> {
  const driver = driverOf(database);
  for (let at = 0; at < rows.length; at += perStatement) {
    const values: unknown[] = [];
    const tuples = rows.slice(at, at + perStatement).map((row) => {
      const first = values.length;
      values.push(...row);
      return `(${row.map((_, i) => `$${String(first + i + 1)}`).join(', ')})`;
    });
    await driver.query(`insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`, values);
  }
}
