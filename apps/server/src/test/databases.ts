import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const testDatabaseKinds: readonly TestDatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the test PostgreSQL server, dropped again by drop(). Test files run in
 * parallel and each runs dispatchers and workers, which must not take each other's events and jobs.
 * `migrated`: a copy of the migrated, empty template database that the server project's global setup
 * makes once per run (CREATE DATABASE ... TEMPLATE), instead of an empty one.
 */
export async function createScratchPostgres(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `parley_t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const template = options.migrated === true ? inject('postgresTemplate') : '';
  await admin((c) => c.query(`create database ${name}${template === '' ? '' : ` template ${pg.escapeIdentifier(template)}`}`));
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

let template: Uint8Array | undefined;
function pgliteTemplate(): Uint8Array {
  template ??= new Uint8Array(fs.readFileSync(inject('pgliteTemplate')));
  return template;
}

/** A migrated database that is the test's alone: in-memory PGlite, or a scratch PostgreSQL database. */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<Database> {
  if (kind === 'pglite') {
    const database = await openPglite(null, pgliteTemplate());
    await migrateDatabase(database);
    return database;
  }
  const scratch = await createScratchPostgres({ migrated: true });
  const database = openPostgres(scratch.url, 5);
  await migrateDatabase(database);
  const close = database.close.bind(database);
  return {
    ...database,
    async close() {
      await close();
      await scratch.drop();
    },
  };
}

/** A pg-boss schema of its own, so two queues in one test never take each other's jobs. */
export function uniqueJobsSchema(): string {
  return `pgboss_t${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

/** A fresh id to scope a test's rows (each test acts in an account of its own). */
export const newAccountId = (): string => randomUUID();
