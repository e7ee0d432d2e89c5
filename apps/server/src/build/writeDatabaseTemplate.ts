import fs from 'node:fs';
import { openPglite } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { PGLITE_TEMPLATE_DIR, templateVersion, type TemplateManifest } from '../platform/db/pgliteTemplate.js';

/**
 * Writes the template a new data directory's database is copied from (platform/db/pgliteTemplate.ts): a PGlite
 * cluster with every migration applied and nothing else (no plans, keys or users: each start writes or
 * creates those). Built beside the target and renamed into place; the old template goes first, so this
 * one is created from scratch, and a build that fails leaves none (starts then create the database as
 * without one).
 */
export async function writeDatabaseTemplate(target: string = PGLITE_TEMPLATE_DIR): Promise<void> {
  const partial = `${target}.${String(process.pid)}.partial`;
  fs.rmSync(target, { recursive: true, force: true });
  fs.rmSync(partial, { recursive: true, force: true });
  try {
    const database = await openPglite(partial);
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    const manifest: TemplateManifest = { version: templateVersion() };
    fs.writeFileSync(`${partial}/template.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}
