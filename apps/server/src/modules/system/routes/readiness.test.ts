import os from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskHasRoom, MIN_FREE_DISK_BYTES } from '../../../platform/db/readiness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startTestServer, type TestServer } from '../../../test/server.js';

describe.each(testDatabaseKinds)('readiness on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { SERVICES: 'web' });
  });
  afterAll(async () => {
    await server.stop();
  });

  const readiness = async () => {
    const res = await fetch(`${server.baseUrl}/readyz`);
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
  };

  it('says not ready while the database answers but takes no writes, and ready again after', async () => {
    expect((await readiness()).status).toBe(200);
    // What a full disk or a read-only standby does to every write, done to the readiness row alone.
    await server.database.db.execute(sql`create function refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device'; end $$`);
    await server.database.db.execute(sql`create trigger refuse_write before insert or update on readiness_probe
      for each row execute function refuse_write()`);
    try {
      const failing = await readiness();
      expect(failing.status).toBe(503);
      expect(failing.body).toEqual({ status: 'not_ready', checks: { database: 'ok', writes: 'failing', disk: 'ok', queue: 'ok' } });
    } finally {
      await server.database.db.execute(sql`drop trigger refuse_write on readiness_probe`);
      await server.database.db.execute(sql`drop function refuse_write()`);
    }
    expect((await readiness()).status).toBe(200);
  });
});

describe('disk room', () => {
  const statfsWith = (freeBytes: number) => () => Promise.resolve({ bavail: BigInt(freeBytes / 4096), bsize: 4096 });

  it('is too little below the minimum an unprivileged writer has left', async () => {
    expect(await diskHasRoom(['/data'], statfsWith(MIN_FREE_DISK_BYTES + 4096))).toBe(true);
    expect(await diskHasRoom(['/data'], statfsWith(MIN_FREE_DISK_BYTES - 4096))).toBe(false);
    expect(await diskHasRoom(['/data', '/media'], (dir) => (dir === '/media' ? statfsWith(0)() : statfsWith(2 * MIN_FREE_DISK_BYTES)()))).toBe(false);
  });

  it('skips a directory not made yet, and reads a real one', async () => {
    const missing = Object.assign(new Error('no such directory'), { code: 'ENOENT' });
    expect(await diskHasRoom(['/not-yet'], () => Promise.reject(missing))).toBe(true);
    expect(await diskHasRoom([os.tmpdir()], undefined, 1)).toBe(true);
    expect(await diskHasRoom([os.tmpdir()], undefined, Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});
