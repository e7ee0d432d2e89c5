import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './dataDirLock.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export type Unlisten = () => Promise<void>;

interface DatabaseBase {
  readonly db: Db;
  /** Subscribes to NOTIFY on a channel; on PostgreSQL through a dedicated connection that reconnects. */
  /** `onNotify` gets each NOTIFY's payload, and '' once (re)connected, when something may have been missed. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<Unlisten>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface PgliteDatabase extends DatabaseBase {
  readonly kind: 'pglite';
  readonly pglite: PGlite;
  readonly dataDir: string | null;
}

export interface PostgresDatabase extends DatabaseBase {
  readonly kind: 'postgres';
  readonly pool: pg.Pool;
  readonly url: string;
}

export type Database = PgliteDatabase | PostgresDatabase;

/**
 * A PGlite database in a data directory (held with a lock file) or, with null, in memory for tests.
 * `template` is a dump (PGlite.dumpDataDir) to start an in-memory database from: creating a cluster
 * takes seconds, loading a dump about one.
 */
export async function openPglite(dataDir: string | null, template?: Blob): Promise<PgliteDatabase> {
  let lock: DataDirLock | null = null;
  let dbDir: string | undefined;
  if (dataDir !== null) {
    lock = acquireDataDirLock(dataDir);
    dbDir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(dbDir, { recursive: true });
  }
  try {
    const pglite =
      dbDir !== undefined
        ? new PGlite(dbDir)
        : template === undefined
          ? new PGlite()
          : new PGlite({ loadDataDir: template });
    await pglite.waitReady;
    const db = drizzlePglite({ client: pglite, schema, casing: 'snake_case' }) as unknown as Db;
    let closed = false;
    return {
      kind: 'pglite',
      pglite,
      dataDir,
      db,
      async listen(channel, onNotify) {
        const unsubscribe = await pglite.listen(channel, (payload) => {
          onNotify(payload);
        });
        return unsubscribe;
      },
      async ping() {
        await pglite.query('select 1');
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          await pglite.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

export function openPostgres(url: string, poolMax: number): PostgresDatabase {
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
  let closed = false;
  const listeners = new Set<pg.Client>();
  return {
    kind: 'postgres',
    pool,
    url,
    db,
    async listen(channel, onNotify) {
      let stopped = false;
      let client: pg.Client | null = null;
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url });
        c.on('notification', (msg) => {
          if (msg.channel === channel) onNotify(msg.payload ?? '');
        });
        let lost = false;
        c.on('error', () => {
          // A dropped connection may report more than one error: reconnect once, or notifications double.
          if (lost) return;
          lost = true;
          listeners.delete(c);
          if (stopped) return;
          // Reconnect after a short pause; the caller's poll covers what is missed meanwhile.
          setTimeout(() => {
            if (!stopped) connect().catch(() => undefined);
          }, 1000).unref();
        });
        await c.connect();
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = c;
        listeners.add(c);
        onNotify('');
      };
      await connect();
      return async () => {
        stopped = true;
        if (client) {
          listeners.delete(client);
          await client.end().catch(() => undefined);
        }
      };
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await pool.end();
    },
  };
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  poolMax: number;
}): Promise<Database> {
  if (options.databaseUrl !== null) return openPostgres(options.databaseUrl, options.poolMax);
  return openPglite(options.dataDir);
}

/** Rows of a raw statement, the same on both drivers. */
export async function queryRows<T extends Record<string, unknown>>(
  q: Queryable,
  statement: ReturnType<typeof sql>,
): Promise<T[]> {
  // Both drivers answer { rows }; the abstract pg-core type does not say so.
  const result = (await q.execute<T>(statement)) as { rows: T[] };
  return result.rows;
}
