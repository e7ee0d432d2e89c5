import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './dataDirLock.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('data directory lock', () => {
  it('refuses a second holder while the first process lives, naming its pid', async () => {
    const dir = tempDir();
    // Another live process holding the lock (its pid in the file), as a running server would.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => holder.once('spawn', resolve));
      fs.writeFileSync(path.join(dir, 'parley.lock'), `${holder.pid ?? 0}\n`);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`pid ${holder.pid ?? 0}`));
      expect(fs.readFileSync(path.join(dir, 'parley.lock'), 'utf8').trim()).toBe(String(holder.pid));
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.once('exit', resolve));
    fs.writeFileSync(path.join(dir, 'parley.lock'), `${dead.pid ?? 0}\n`);
    const lock = acquireDataDirLock(dir);
    // The holder's pid, and on Linux its start time.
    expect(fs.readFileSync(lock.file, 'utf8').trim()).toMatch(new RegExp(`^${String(process.pid)}( \\d+)?$`));
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it("takes over a lock naming this process's own pid that this process does not hold (a restarted container's pid 1)", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'parley.lock'), `${String(process.pid)} 1\n`);
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(lock.file, 'utf8').trim()).toMatch(new RegExp(`^${String(process.pid)}( \\d+)?$`));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
    // The old format, the pid alone, too.
    fs.writeFileSync(path.join(dir, 'parley.lock'), `${String(process.pid)}\n`);
    acquireDataDirLock(dir).release();
  });

  it('takes over a lock whose pid now belongs to another program, or to a later process', async () => {
    const dir = tempDir();
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    const later = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      await Promise.all([new Promise((resolve) => other.once('spawn', resolve)), new Promise((resolve) => later.once('spawn', resolve))]);
      fs.writeFileSync(path.join(dir, 'parley.lock'), `${String(other.pid ?? 0)}\n`);
      acquireDataDirLock(dir).release();
      // A Node process with that pid, started after the lock was written (its start time differs).
      fs.writeFileSync(path.join(dir, 'parley.lock'), `${String(later.pid ?? 0)} 1\n`);
      acquireDataDirLock(dir).release();
    } finally {
      other.kill();
      later.kill();
    }
  });

  it('refuses the same process twice and frees the directory on release', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
    const again = acquireDataDirLock(dir);
    again.release();
  });
});
