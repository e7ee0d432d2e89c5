import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDatabaseTemplate } from '../../build/writeDatabaseTemplate.js';
import { openPglite, queryRows } from './client.js';
import { migrationsFolder } from './migrate.js';
import { prepareDataDir, templateMatches, templateVersion } from './pgliteTemplate.js';
import { sql } from 'drizzle-orm';

const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: unknown[];
};

let dir: string;
let template: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-template-'));
  template = path.join(dir, 'template');
  await writeDatabaseTemplate(template);
}, 180_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const dataDir = (name: string): string => path.join(dir, name);

describe('the empty database template', () => {
  it('is a migrated cluster named by its migrations and PGlite, and nothing else', () => {
    expect(fs.readdirSync(template).sort()).toEqual(['pgdata', 'template.json']);
    expect(JSON.parse(fs.readFileSync(path.join(template, 'template.json'), 'utf8'))).toEqual({ version: templateVersion() });
    expect(templateVersion()).toMatch(/^pglite \d+\.\d+\.\d+; migrations [0-9a-f]{64}$/);
    expect(templateMatches(template)).toBe(true);
  });

  it('starts a new data directory as a copy, with every migration applied and no rows of its own', async () => {
    const data = dataDir('fresh');
    // A copy a start that died half-way left behind.
    fs.mkdirSync(path.join(data, `pgdata.12345.partial`), { recursive: true });
    expect(prepareDataDir(path.join(data, 'pgdata'), template)).toBe('template');
    expect(fs.readdirSync(data)).toEqual(['pgdata']);

    const database = await openPglite(data);
    try {
      expect(database.origin).toBe('existing');
      const [applied] = await queryRows<{ count: number }>(database.db, sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
      expect(applied?.count).toBe(journal.entries.length);
      const [rows] = await queryRows<{ count: number }>(
        database.db,
        sql`select (select count(*) from users) + (select count(*) from accounts) + (select count(*) from plans) as count`,
      );
      expect(Number(rows?.count)).toBe(0);
    } finally {
      await database.close();
    }
    // Its own database now: the template is not copied over it again.
    expect(prepareDataDir(path.join(data, 'pgdata'), template)).toBe('existing');
  }, 60_000);

  it('is not used when it is of other migrations or PGlite, or when the folder holds something else', () => {
    const other = path.join(dir, 'other-template');
    fs.cpSync(template, other, { recursive: true });
    fs.writeFileSync(path.join(other, 'template.json'), JSON.stringify({ version: 'pglite 0.0.1; migrations 00' }));
    expect(templateMatches(other)).toBe(false);
    const data = dataDir('other');
    expect(prepareDataDir(path.join(data, 'pgdata'), other)).toBe('new');
    expect(fs.readdirSync(path.join(data, 'pgdata'))).toEqual([]);

    expect(prepareDataDir(path.join(dataDir('none'), 'pgdata'), path.join(dir, 'missing'))).toBe('new');

    const cut = path.join(dataDir('cut-short'), 'pgdata');
    fs.mkdirSync(path.join(cut, 'base'), { recursive: true });
    expect(prepareDataDir(cut, template)).toBe('new');
    expect(fs.readdirSync(cut)).toEqual(['base']);
  });
});
