import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { mediaFiles } from '../../platform/db/schema/index.js';
import { storeMediaFile } from './mediaFiles.js';
import { isStored, openTestStorage, testMediaServices, type TestStorage } from './test/testStorages.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { jobDefinitions } from '../../app/jobDefinitions.js';
import { sweepUnnamedMediaJob, sweepUnreferencedMediaJob } from './mediaSweepJob.js';
import { JobQueue } from '../../platform/jobs/queue.js';

const context = () => ({ jobId: 'j', retryCount: 0, log: silentLogger(), signal: new AbortController().signal });

describe.each(testDatabaseKinds)('media sweep jobs on %s', (kind) => {
  let database: Database;
  let t: TestStorage;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await openTestStorage('disk');
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  it('are scheduled jobs of the deployment', () => {
    // Never started: the definitions only keep it.
    const queue = new JobQueue({ database, log: silentLogger(), work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1 });
    const definitions = jobDefinitions(testConfig(), database, queue, t.storage);
    const schedules = Object.fromEntries(definitions.map((d) => [d.name, d.schedule?.cron]));
    expect(schedules['media.sweep-unreferenced']).toBe('23 * * * *');
    expect(schedules['media.sweep-storage']).toBe('47 3 * * *');
  });

  it('remove an old upload never sent, and keep a fresh one', async () => {
    const account = await createAccount(database.db);
    const upload = (): ReturnType<typeof storeMediaFile> =>
      storeMediaFile(database.db, testMediaServices(t.storage), {
        accountId: account.id,
        contentType: 'image/png',
        filename: 'a.png',
        bytes: Buffer.from('x'),
        width: 1,
        height: 1,
        source: 'upload',
      });
    const [old, fresh] = [await upload(), await upload()];
    await database.db.update(mediaFiles).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(mediaFiles.id, old.id));
    await sweepUnreferencedMediaJob(database, t.storage).handler({}, context());
    await sweepUnnamedMediaJob(database, t.storage).handler({}, context());
    expect(await isStored(t.storage, old.key)).toBe(false);
    expect(await database.db.select().from(mediaFiles).where(eq(mediaFiles.id, old.id))).toEqual([]);
    expect(await isStored(t.storage, fresh.key)).toBe(true);
  });
});
