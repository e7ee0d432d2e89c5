import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths.js';
import type { Scope } from './scope.js';

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * A PostgreSQL database of the run's own beside the one BENCH_DATABASE_URL names (created now, dropped when
 * the scope ends), so a run starts empty and leaves nothing behind. Answers its URL.
 */
export async function scratchPostgres(adminUrl: string, prefix: string, scope: Scope): Promise<string> {
  const pg = (await import(pathToFileURL(path.join(repoRoot, 'node_modules', 'pg', 'lib', 'index.js')).href)) as {
    default: { Client: new (options: { connectionString: string }) => PgClient };
  };
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = async (statement: string): Promise<void> => {
    const c = new pg.default.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  scope.defer(() => admin(`drop database if exists ${name} with (force)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
