import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { openTestDatabase, testDatabaseKinds, uniqueJobsSchema } from '../../test/databases.js';
import { captureLogger } from '../../test/logger.js';
import { defineJob, JobQueue } from './queue.js';

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(testDatabaseKinds)('job queue on %s', (kind) => {
  let database: Database;
  let queue: JobQueue;
  const schema = uniqueJobsSchema();
  const { log, lines } = captureLogger();
  const runs: { job: string; value: number; attempt: number; at: number }[] = [];

  const echo = defineJob({
    name: 'test.echo',
    data: z.object({ value: z.number() }),
    handler(data, ctx) {
      runs.push({ job: 'echo', value: data.value, attempt: ctx.retryCount, at: Date.now() });
      return Promise.resolve();
    },
  });
  const flaky = defineJob({
    name: 'test.flaky',
    data: z.object({ value: z.number() }),
    retryLimit: 2,
    retryDelaySeconds: 1,
    handler(data, ctx) {
      runs.push({ job: 'flaky', value: data.value, attempt: ctx.retryCount, at: Date.now() });
      return ctx.retryCount < 2 ? Promise.reject(new Error('carrier timeout')) : Promise.resolve();
    },
  });
  const hopeless = defineJob({
    name: 'test.hopeless',
    data: z.object({ value: z.number() }),
    retryLimit: 1,
    retryDelaySeconds: 1,
    handler(data, ctx) {
      runs.push({ job: 'hopeless', value: data.value, attempt: ctx.retryCount, at: Date.now() });
      return Promise.reject(new Error('always fails'));
    },
  });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    queue = new JobQueue({
      database,
      log,
      work: true,
      schedule: false,
      retryLimit: 3,
      retryDelaySeconds: 1,
      pollingIntervalSeconds: 0.5,
      schema,
    });
    await queue.start([echo, flaky, hopeless]);
  });
  afterAll(async () => {
    await queue.stop(5000);
    await database.close();
  });

  it('runs a job once with its data', async () => {
    const id = await queue.send(echo, { value: 7 });
    expect(id).toEqual(expect.any(String));
    await until(() => runs.some((r) => r.job === 'echo' && r.value === 7));
    await new Promise((r) => setTimeout(r, 1200));
    expect(runs.filter((r) => r.job === 'echo' && r.value === 7)).toHaveLength(1);
    expect(lines.some((l) => l.msg === 'job completed' && l.jobId === id)).toBe(true);
  });

  it('retries a failing job with growing delays until it succeeds', async () => {
    await queue.send(flaky, { value: 1 });
    await until(() => runs.filter((r) => r.job === 'flaky').length === 3);
    const attempts = runs.filter((r) => r.job === 'flaky');
    expect(attempts.map((r) => r.attempt)).toEqual([0, 1, 2]);
    const [a0, a1, a2] = attempts.map((r) => r.at) as [number, number, number];
    // Backoff: the second wait is longer than the first retry delay of one second.
    expect(a1 - a0).toBeGreaterThanOrEqual(900);
    expect(a2 - a1).toBeGreaterThanOrEqual(a1 - a0 - 600);
  });

  it('gives up after the retry limit and records the failure', async () => {
    const id = await queue.send(hopeless, { value: 3 });
    await until(() => runs.filter((r) => r.job === 'hopeless').length === 2);
    await until(() => lines.filter((l) => l.msg === 'job failed' && l.jobId === id).length === 2);
    await new Promise((r) => setTimeout(r, 2500));
    expect(runs.filter((r) => r.job === 'hopeless')).toHaveLength(2);
    const [job] = await queue.pgBoss.findJobs('test.hopeless', { id: id ?? '' });
    expect(job?.state).toBe('failed');
  });

  it('refuses to enqueue data that does not match the job', async () => {
    await expect(queue.send(echo, { value: 'seven' } as unknown as { value: number })).rejects.toThrow();
  });
});

describe.each(testDatabaseKinds)('a job sent to start now on %s', (kind) => {
  let database: Database;
  const schema = uniqueJobsSchema();
  const ran: number[] = [];
  const ping = defineJob({
    name: 'test.ping',
    data: z.object({ value: z.number() }),
    handler(data) {
      ran.push(data.value);
      return Promise.resolve();
    },
  });
  // The worker looks for jobs by itself only once an hour: only the NOTIFY of a send can bring it one.
  let worker: JobQueue;
  let sender: JobQueue;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const { log } = captureLogger();
    const common = { database, log, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema };
    worker = new JobQueue({ ...common, work: true, pollingIntervalSeconds: 3600 });
    sender = new JobQueue({ ...common, work: false });
    await worker.start([ping]);
    await sender.start([ping]);
    // Past the worker's first look, which finds nothing.
    await new Promise((r) => setTimeout(r, 1500));
  });
  afterAll(async () => {
    await sender.stop(5000);
    await worker.stop(5000);
    await database.close();
  });

  it('is fetched at once by the worker, whoever sent it, without waiting for its next look', async () => {
    await sender.send(ping, { value: 1 });
    await until(() => ran.includes(1));
    await worker.send(ping, { value: 2 });
    await until(() => ran.includes(2));
    expect(ran).toEqual([1, 2]);
  });

  it('brings a queue that exists without announcements to them', async () => {
    await worker.pgBoss.updateQueue('test.ping', { notify: false });
    const again = new JobQueue({ database, log: captureLogger().log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema });
    await again.start([ping]);
    try {
      expect((await again.pgBoss.getQueue('test.ping'))?.notify).toBe(true);
    } finally {
      await again.stop(5000);
    }
  });
});
