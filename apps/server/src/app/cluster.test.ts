import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { openPostgres, type PostgresDatabase } from '../platform/db/client.js';
import { publishEvent } from '../platform/events/outbox.js';
import { devToken } from '../modules/identity/authenticator.js';
import { createScratchPostgres } from '../test/databases.js';
import { runCli, spawnParley, type ParleyProcess } from '../test/processes.js';
import { connectClient, type ConnectedClient } from '../test/socket.js';

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Several processes on one PostgreSQL database, as a production deployment runs them.
describe.runIf(process.env.TEST_DATABASE_URL)('processes on one PostgreSQL database', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let webA: ParleyProcess;
  let webB: ParleyProcess;
  let workers: ParleyProcess[];
  let urlA: string;
  let urlB: string;
  let database: PostgresDatabase;
  const clients: ConnectedClient[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    const env = { DATABASE_URL: scratch.url, DEV_AUTH: 'true' };
    // The first process migrates; the others start together and wait on the migration lock.
    webA = spawnParley(env, ['--services=web']);
    webB = spawnParley(env, ['--services=web']);
    workers = [spawnParley(env, ['--services=worker,scheduler']), spawnParley(env, ['--services=worker'])];
    [urlA, urlB] = await Promise.all([webA.ready(), webB.ready()]);
    await until(() => workers.every((w) => w.lines.some((l) => l.msg === 'Parley is running')));
    database = openPostgres(scratch.url, 2);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.socket.close();
    await Promise.all([webA, webB, ...workers].map((p) => p.stop()));
    await database.close();
    await scratch.drop();
  });

  it('runs each job exactly once across two workers', async () => {
    const boss = new PgBoss({ connectionString: scratch.url, schedule: false, supervise: false, migrate: false });
    await boss.start();
    const ids: string[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const id = await boss.send('maintenance.prune-events', { n: i });
        if (id) ids.push(id);
      }
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
    expect(ids).toHaveLength(20);
    const completedBy = (): Map<string, number> => {
      const count = new Map<string, number>();
      for (const w of workers) {
        for (const l of w.lines) {
          if (l.msg === 'job completed' && typeof l.jobId === 'string' && ids.includes(l.jobId)) {
            count.set(l.jobId, (count.get(l.jobId) ?? 0) + 1);
          }
        }
      }
      return count;
    };
    await until(() => completedBy().size === 20, 75_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect([...completedBy().values()].every((n) => n === 1)).toBe(true);
    // Neither web process runs jobs.
    expect([webA, webB].some((w) => w.lines.some((l) => l.msg === 'job completed'))).toBe(false);
  }, 100_000);

  it('lets the operator CLI work while the servers run', async () => {
    const result = await runCli(['migrate', '--json'], { DATABASE_URL: scratch.url });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, database: 'postgres' });
    expect((await fetch(`${urlA}/readyz`)).status).toBe(200);
  });

  it('delivers an event to the websocket clients of both web processes', async () => {
    const accountId = randomUUID();
    const onA = await connectClient(urlA, { token: devToken(randomUUID(), accountId) });
    const onB = await connectClient(urlB, { token: devToken(randomUUID(), accountId) });
    const elsewhere = await connectClient(urlB, { token: devToken(randomUUID(), randomUUID()) });
    clients.push(onA, onB, elsewhere);
    await publishEvent(database.db, { type: 'messageReceived', accountId, data: { text: 'across processes' } });
    await until(() => onA.received.length === 1 && onB.received.length === 1);
    expect(onB.received[0]).toMatchObject({ type: 'messageReceived', accountId, data: { text: 'across processes' } });
    await new Promise((r) => setTimeout(r, 500));
    expect(onA.received).toHaveLength(1);
    expect(onB.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  }, 30_000);

  // Last: it stops a web process.
  it("leaves the other web process's websocket clients connected when one web process stops", async () => {
    const accountId = randomUUID();
    const onA = await connectClient(urlA, { token: devToken(randomUUID(), accountId) });
    const onB = await connectClient(urlB, { token: devToken(randomUUID(), accountId) });
    clients.push(onA, onB);
    let disconnectedB = false;
    onB.socket.on('disconnect', () => {
      disconnectedB = true;
    });
    await webA.stop();
    await until(() => !onA.socket.connected);
    await new Promise((r) => setTimeout(r, 1000));
    expect(disconnectedB).toBe(false);
    expect(onB.socket.connected).toBe(true);
  }, 30_000);
});
