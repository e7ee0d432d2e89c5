import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseTemplateVersion } from '../../build/buildStamp.js';
import { consoleNote } from '../../build/consoleNote.js';

/** apps/server, from src/platform/db (tests) and from dist/platform/db (built) alike. */
const serverDir = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * An empty, migrated embedded database that the build writes (build/writeDatabaseTemplate.ts), with
 * `template.json` naming what it was made of. Not committed: about 40 MB of PostgreSQL files.
 */
export const PGLITE_TEMPLATE_DIR = path.join(serverDir, 'dist', 'db-template');

export interface TemplateManifest {
  /** databaseTemplateVersion() of the migrations and PGlite that made it. */
  version: string;
}

export const templateVersion = (): string => databaseTemplateVersion(serverDir);

/** Whether the template in `dir` is whole and made of this very code's migrations and PGlite. */
export function templateMatches(dir: string): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'template.json'), 'utf8')) as Partial<TemplateManifest>;
    return manifest.version === templateVersion() && fs.existsSync(path.join(dir, 'pgdata', 'PG_VERSION'));
  } catch {
    return false;
  }
}

/** How the data directory's database came to be at this start. */
export type DatabaseOrigin = 'existing' | 'template' | 'new';

/**
 * Readies PGlite's folder in a data directory (the caller holds its lock). An existing database is left
 * as it is. A new one is a copy of the template when there is one of the same migrations and PGlite,
 * copied beside the folder and renamed into place, so a start that dies half-way leaves no half a
 * database; otherwise the folder is left empty and PGlite creates the cluster (initdb) and the migrations
 * run, as without a template. Creating a cluster and running every migration took 6-10 s on the 2-core
 * machine; copying the template well under one.
 */
export function prepareDataDir(pgDataDir: string, templateDir: string = PGLITE_TEMPLATE_DIR): DatabaseOrigin {
  if (fs.existsSync(path.join(pgDataDir, 'PG_VERSION'))) return 'existing';
  const parent = path.dirname(pgDataDir);
  const base = path.basename(pgDataDir);
  // Copies a start that died half-way left behind.
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    if (name.startsWith(`${base}.`) && name.endsWith('.partial')) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  const dataDir = path.dirname(pgDataDir);
  const shown = path.relative(process.cwd(), dataDir);
  consoleNote(`Creating the database in ${shown !== '' && !shown.startsWith('..') && !path.isAbsolute(shown) ? `./${shown}` : dataDir}…`);
  // Something other than a database in the folder (an initdb cut short): PGlite's own business, as before.
  const empty = !fs.existsSync(pgDataDir) || fs.readdirSync(pgDataDir).length === 0;
  if (!empty || !templateMatches(templateDir)) {
    fs.mkdirSync(pgDataDir, { recursive: true });
    return 'new';
  }
  const partial = `${pgDataDir}.${String(process.pid)}.partial`;
  fs.cpSync(path.join(templateDir, 'pgdata'), partial, { recursive: true });
  fs.rmSync(pgDataDir, { recursive: true, force: true });
  fs.renameSync(partial, pgDataDir);
  return 'template';
}
