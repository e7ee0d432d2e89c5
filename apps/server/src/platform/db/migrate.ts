import { fileURLToPath } from 'node:url';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Database } from './client.js';

/** apps/server/migrations, from src/platform/db (tests) and from dist/platform/db (built) alike. */
export const migrationsFolder = fileURLToPath(new URL('../../../migrations', import.meta.url));

// Any constant shared by every process of one deployment; two starting together migrate one at a time.
const MIGRATION_LOCK_KEY = 7_311_042_001;

/** Applies the committed migrations. Safe to call from several processes at once on PostgreSQL; PGlite has one. */
export async function migrateDatabase(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
