import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { writeDatabaseTemplate } from '../build/writeDatabaseTemplate.js';
import { openPglite, openPostgres } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PGlite cluster as a dump file; each test database starts from a copy. */
    pgliteTemplate: string;
    /**
     * A migrated, empty PGlite data directory, as the build writes it (build/writeDatabaseTemplate.ts):
     * the CLI's tests start each data directory as a copy of its pgdata folder (test/cli.ts).
     */
    pgliteDataTemplate: string;
    /**
     * With TEST_DATABASE_URL: a migrated, empty database on that server, which each test database
     * copies (CREATE DATABASE ... TEMPLATE); '' without.
     */
    postgresTemplate: string;
  }
}

async function onServer<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The migrated template database on the test PostgreSQL server; its name starts as a scratch database's, which CI drops if left behind. */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `parley_t_template_${String(process.pid)}_${String(Date.now())}`;
  await onServer(serverUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), 1);
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  // A database is copied only with no session on it: wait for the closed ones to end on the server.
  await onServer(serverUrl, async (c) => {
    for (;;) {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  return name;
}

// Creating a PGlite cluster takes about 6 s and loading a dump about 1 s; tests open dozens.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  const dataTemplate = path.join(dir, 'data-template');
  // Side by side: each PGlite cluster in a thread of its own, the PostgreSQL one on its server.
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [pgTemplate] = await Promise.all([
    serverUrl ? postgresTemplate(serverUrl) : Promise.resolve(''),
    (async () => {
      const database = await openPglite(null);
      try {
        await migrateDatabase(database);
        fs.writeFileSync(file, await database.dump());
      } finally {
        await database.close();
      }
    })(),
    writeDatabaseTemplate(dataTemplate),
  ]);
  project.provide('pgliteTemplate', file);
  project.provide('pgliteDataTemplate', dataTemplate);
  project.provide('postgresTemplate', pgTemplate);
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (serverUrl && pgTemplate !== '') await onServer(serverUrl, (c) => c.query(`drop database if exists ${pgTemplate} with (force)`));
  };
}
