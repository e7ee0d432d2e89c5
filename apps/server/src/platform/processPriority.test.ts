import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { applyWorkerNice } from './processPriority.js';
import { testConfig } from '../test/config.js';
import { silentLogger } from '../test/logger.js';
import { spawnParley, type ParleyProcess } from '../test/processes.js';

const started: ParleyProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceValues(pid: number): number[] {
  return fs.readdirSync(`/proc/${String(pid)}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${String(pid)}/task/${tid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

const until = async (check: () => boolean): Promise<void> => {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('WORKER_NICE', () => {
  it('takes a nice value from 0 to 19, 0 when unset', () => {
    expect(testConfig().workerNice).toBe(0);
    expect(testConfig({ WORKER_NICE: '10' }).workerNice).toBe(10);
    for (const bad of ['20', '-1', '2.5', 'low']) {
      expect(() => testConfig({ WORKER_NICE: bad })).toThrow(ConfigError);
      expect(() => testConfig({ WORKER_NICE: bad })).toThrow(/WORKER_NICE: must be a whole number from 0 to 19/);
    }
  });

  it('changes nothing unless the process runs the worker without the web', () => {
    const log = silentLogger();
    expect(applyWorkerNice({ services: ['worker'], workerNice: 0 }, log)).toBeNull();
    expect(applyWorkerNice({ services: ['web', 'worker'], workerNice: 10 }, log)).toBeNull();
    expect(applyWorkerNice({ services: ['web'], workerNice: 10 }, log)).toBeNull();
    expect(applyWorkerNice({ services: ['scheduler'], workerNice: 10 }, log)).toBeNull();
    expect(os.getPriority()).toBe(0);
  });

  it.runIf(process.platform === 'linux')('lowers every thread of a worker process, and leaves a web process as it is', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-nice-'));
    dirs.push(dataDir);
    const worker = spawnParley({ DATA_DIR: dataDir, SERVICES: 'worker', WORKER_NICE: '7' });
    started.push(worker);
    await until(() => worker.lines.some((l) => l.msg === 'Parley is running'));
    expect(worker.lines.some((l) => l.workerNice === 7)).toBe(true);
    const workerThreads = threadNiceValues(worker.child.pid ?? 0);
    expect(workerThreads.length).toBeGreaterThan(1);
    expect(new Set(workerThreads)).toEqual(new Set([7]));
    await worker.stop();

    const web = spawnParley({ DATA_DIR: dataDir, SERVICES: 'web,worker', WORKER_NICE: '7' });
    started.push(web);
    await web.ready();
    expect(new Set(threadNiceValues(web.child.pid ?? 0))).toEqual(new Set([0]));
  });
});
