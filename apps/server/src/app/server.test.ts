import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../platform/jobs/queue.js';
import { buildApp } from './httpApp.js';
import { testDatabaseKinds } from '../test/databases.js';
import { silentLogger } from '../test/logger.js';
import { startTestServer, type TestServer } from '../test/server.js';
import { createMessageHandlers } from '../modules/messaging/handlers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

describe.each(testDatabaseKinds)('graceful shutdown on %s', (kind) => {
  it('lets a running job finish before it stops', async () => {
    const events: string[] = [];
    let started!: () => void;
    const jobStarted = new Promise<void>((resolve) => (started = resolve));
    const slow = defineJob({
      name: 'test.slow',
      data: z.object({}),
      async handler() {
        events.push('job started');
        started();
        await new Promise((r) => setTimeout(r, 1500));
        events.push('job finished');
      },
    });
    const server = await startTestServer(kind, { SERVICES: 'worker' }, { jobs: () => [slow] });
    await server.jobs.send(slow, {});
    await jobStarted;
    await server.stop();
    events.push('stopped');
    expect(events).toEqual(['job started', 'job finished', 'stopped']);
  });

  it('registers recurring schedules only in the scheduler role', async () => {
    const scheduler = await startTestServer(kind, { SERVICES: 'scheduler' });
    servers.push(scheduler);
    const schedules = await scheduler.jobs.pgBoss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron])).toContainEqual(['maintenance.prune-events', '17 * * * *']);
    const worker = await startTestServer(kind, { SERVICES: 'worker' });
    servers.push(worker);
    expect(await worker.jobs.pgBoss.getSchedules()).toEqual([]);
  });

  it('answers a request in flight, then refuses new connections', async () => {
    const server = await startTestServer(kind, { SERVICES: 'web' });
    servers.push(server);
    // The same app as the server builds, with one slow probe route, listening on its own port.
    const app = await buildApp(
      {
        config: server.config,
        log: silentLogger(),
        database: server.database,
        jobs: server.jobs,
        mailer: server.mailer,
        carriers: server.carriers,
        carrierHandlers: createMessageHandlers({ database: server.database, log: silentLogger() }),
        authenticator: { authenticate: () => Promise.resolve(null) },
      },
      { webDist: null },
    );
    app.get('/v1/probe/slow', { config: { permission: 'public' } }, async () => {
      await new Promise((r) => setTimeout(r, 1000));
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const inFlight = fetch(`http://127.0.0.1:${port}/v1/probe/slow`);
    await new Promise((r) => setTimeout(r, 200));
    const closing = app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
