import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnParley, type ParleyProcess } from './test/processes.js';

const started: ParleyProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-main-'));
  dirs.push(dir);
  return dir;
};
const run = (env: Record<string, string>, args: string[] = []): ParleyProcess => {
  const p = spawnParley(env, args);
  started.push(p);
  return p;
};

describe('the server process', () => {
  it('serves on the embedded database, refuses a second process on its data dir, and stops cleanly', async () => {
    const dataDir = tempDir();
    const first = run({ DATA_DIR: dataDir });
    const url = await first.ready();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const second = run({ DATA_DIR: dataDir });
    const t0 = Date.now();
    expect(await second.exited).toBe(1);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(second.stderr()).toContain(`The data directory ${dataDir} is in use by another Parley process`);
    // The first process is untouched.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    expect(await first.stop()).toBe(0);
    expect(first.lines.some((l) => l.msg === 'stopped')).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'parley.lock'))).toBe(false);

    // The data survives: a new process opens the same directory.
    const third = run({ DATA_DIR: dataDir });
    await third.ready();
  });

  it('stops at start-up with a message naming a bad variable', async () => {
    const p = run({ DATA_DIR: tempDir(), DATABASE_POOL_MAX: 'lots' });
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain('DATABASE_POOL_MAX: must be a whole number');
    const q = run({ DATA_DIR: tempDir() }, ['--services=web,mail']);
    expect(await q.exited).toBe(1);
    expect(q.stderr()).toContain('--services: must be a comma-separated list of web, worker, scheduler (unknown: mail)');
  });
});
