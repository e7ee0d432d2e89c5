import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './dataDirLock.js';
import { PgliteBridge } from './pgliteBridge.js';
import { prepareDataDir, type DatabaseOrigin } from './pgliteTemplate.js';
import { SessionPool } from './sessionPool.js';
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
  /** The database's one session, lent to one caller at a time (requests before background work). */
  readonly pool: SessionPool;
  readonly dataDir: string | null;
  /** For a data directory: whether its database was there, or was created now (from the template or not). */
  readonly origin: DatabaseOrigin | null;
  /** The whole database as a tar file, to start in-memory test databases from. */
  dump(): Promise<Uint8Array>;
}

export interface PostgresDatabase extends DatabaseBase {
  readonly kind: 'postgres';
  readonly pool: pg.Pool;
  readonly url: string;
}

export type Database = PgliteDatabase | PostgresDatabase;

/**
 * Server settings for the embedded database. Full-page images guard against pages torn by an operating
 * system crash; PGlite runs without fsync, so they protect nothing there, and they double the WAL
 * written after each checkpoint.
 */
const PGLITE_SETTINGS = ['-c', 'full_page_writes=off'];

/**
 * A PGlite database in a data directory (held with a lock file) or, with null, in memory for tests.
 * PGlite runs in a thread of its own (pgliteBridge.ts) and is spoken to through node-postgres, as
 * PostgreSQL is. `template` is a dump (dump()) to start an in-memory database from: creating a
 * cluster takes seconds, loading a dump about one.
 */
export async function openPglite(dataDir: string | null, template?: Uint8Array): Promise<PgliteDatabase> {
  let lock: DataDirLock | null = null;
  let pgDataDir: string | null = null;
  let origin: DatabaseOrigin | null = null;
  if (dataDir !== null) {
    lock = acquireDataDirLock(dataDir);
    pgDataDir = path.join(dataDir, 'pgdata');
  }
  try {
    // Under the lock: a new database starts as a copy of the migrated template (platform/db/pgliteTemplate.ts).
    if (pgDataDir !== null) origin = prepareDataDir(pgDataDir);
    const bridge = await PgliteBridge.start({ pgDataDir, template: template ?? null, settings: PGLITE_SETTINGS });
    const channels = new Map<string, Set<(payload: string) => void>>();
    const pool = new SessionPool({
      newClient: () => new pg.Client({ user: 'postgres', database: 'postgres', stream: () => bridge.connection() }),
      async onConnect(client) {
        client.on('notification', (message) => {
          for (const onNotify of channels.get(message.channel) ?? []) onNotify(message.payload ?? '');
        });
        // A client that replaces a failed one starts a new session state: listen again.
        for (const channel of channels.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      },
    });
    // drizzle leases a client for each transaction from a pool; SessionPool answers as node-postgres's does.
    const db = drizzlePg({ client: pool as unknown as pg.Pool, schema, casing: 'snake_case' }) as unknown as Db;
    let closed = false;
    return {
      kind: 'pglite',
      pool,
      dataDir,
      origin,
      db,
      dump: () => bridge.dump(),
      async listen(channel, onNotify) {
        let subscribers = channels.get(channel);
        if (subscribers === undefined) {
          subscribers = new Set();
          channels.set(channel, subscribers);
          // The session is the database's own: a NOTIFY comes back with the statement that commits it.
          await pool.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        }
        subscribers.add(onNotify);
        return async () => {
          subscribers.delete(onNotify);
          if (subscribers.size > 0 || channels.get(channel) !== subscribers) return;
          channels.delete(channel);
          if (!closed) await pool.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`);
        };
      },
      async ping() {
        await pool.query('select 1');
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          await pool.end();
          await bridge.close();
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

/** What every pooled PostgreSQL connection says of itself and sets at its start. */
export interface PostgresSessionOptions {
  /** application_name, so pg_stat_activity tells a web process's connections from a worker's. */
  applicationName?: string;
}

/**
 * The connection's start-up settings. JIT is off: the requests' statements are short, and on a large table
 * the planner's cost estimate (a count, a window over an account's rows) crossed jit_above_cost and spent
 * tens of milliseconds compiling for a statement that runs in a few (docs/configuration.md, "Database").
 */
const SESSION_SETTINGS = '-c jit=off';

/** application_name of a process's connections: its roles, as `parley-web` or `parley-worker+scheduler`. */
export const applicationNameOf = (services: readonly string[]): string => `parley-${services.join('+')}`;

export function openPostgres(url: string, poolMax: number, session: PostgresSessionOptions = {}): PostgresDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    options: SESSION_SETTINGS,
    ...(session.applicationName === undefined ? {} : { application_name: session.applicationName }),
  });
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
  /** PostgreSQL's application_name of the pool's connections (the process's roles). */
  applicationName?: string;
}): Promise<Database> {
  if (options.databaseUrl !== null) {
    return openPostgres(options.databaseUrl, options.poolMax, options.applicationName === undefined ? {} : { applicationName: options.applicationName });
  }
  return openPglite(options.dataDir);
}

/**
 * How many rows a background transaction (a campaign batch, a dispatcher claim, a simulator round) takes:
 * `full`, or `contended` on PGlite while requests are waiting for its one session, so that they wait for
 * a short transaction only (platform/db/sessionPool.ts).
 */
export function backgroundBatch(database: Database, full: number, contended: number): number {
  return database.kind === 'pglite' && database.pool.contended() ? contended : full;
}

/**
 * A PostgreSQL array literal of ids or numbers (`{a,b}`), sent as one parameter however long the list; cast it
 * in SQL (`::uuid[]`). Only for values without commas, braces or quotes.
 */
export const arrayLiteral = (values: readonly (string | number)[]): string => `{${values.join(',')}}`;

/** Rows of a raw statement, the same on both drivers. */
export async function queryRows<T extends Record<string, unknown>>(
  q: Queryable,
  statement: ReturnType<typeof sql>,
): Promise<T[]> {
  // Both drivers answer { rows }; the abstract pg-core type does not say so.
  const result = (await q.execute<T>(statement)) as { rows: T[] };
  return result.rows;
}
