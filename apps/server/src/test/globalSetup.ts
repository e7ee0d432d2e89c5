import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PGlite cluster as a dump file; each test database starts from a copy. */
    pgliteTemplate: string;
  }
}

// Creating a PGlite cluster takes about 6 s and loading a dump about 1 s; tests open dozens.
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  const database = await openPglite(null);
  try {
    await migrateDatabase(database);
    fs.writeFileSync(file, await database.dump());
  } finally {
    await database.close();
  }
  project.provide('pgliteTemplate', file);
  return () => {
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
