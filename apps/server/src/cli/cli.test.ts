import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from '../platform/db/client.js';
import { afterTest, cliStorage, runCommand } from '../test/cli.js';
import { runCli, spawnParley, type ParleyProcess } from '../test/processes.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../platform/db/client.js';
import { parseArgs } from './args.js';

const cli = runCli;

const dirs: string[] = [];
const servers: ParleyProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
  dirs.push(dir);
  return dir;
};

describe('parley CLI', () => {
  it('migrates the embedded database and prints JSON for scripts', async () => {
    const dataDir = tempDir();
    const result = await cli(['migrate', '--json'], { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, database: 'pglite' });
    const database = await openPglite(dataDir);
    try {
      const rows = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from information_schema.tables where table_name = 'events'`,
      );
      expect(rows[0]?.n).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('says clearly that a running server holds the embedded data directory', async () => {
    const storage = await cliStorage('pglite');
    afterTest(storage.remove);
    const dataDir = storage.env.DATA_DIR ?? '';
    const server = spawnParley({ DATA_DIR: dataDir });
    servers.push(server);
    await server.ready();
    // The CLI's own process, and the command line in the test's process: both refused.
    const result = await cli(['migrate', '--json'], { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('data_dir_in_use');
    expect(body.error.message).toContain('is in use by another Parley process');
    const text = await runCommand(['migrate'], { DATA_DIR: dataDir });
    expect(text.stderr).toContain('stop that process first');
  });

  it('refuses unknown commands, bad configuration and missing arguments', async () => {
    const unknown = await cli(['frobnicate'], { DATA_DIR: tempDir() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown command 'frobnicate'");
    expect(unknown.stderr).toContain('Usage: parley <command>');
    const bad = await cli(['migrate', '--json'], { DATABASE_URL: 'mysql://nope' });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'invalid_configuration' } });
    const missing = await cli(['seed-demo', '--json'], { DATA_DIR: tempDir() });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  });

  it('parses flags in both spellings', () => {
    expect(parseArgs(['create-user', '--email', 'a@b.c', '--password=p w', '--json'])).toEqual({
      command: 'create-user',
      flags: new Map<string, string | true>([
        ['email', 'a@b.c'],
        ['password', 'p w'],
        ['json', true],
      ]),
      positionals: [],
    });
  });
});
