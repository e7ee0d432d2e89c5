import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { publishEvents } from './outbox.js';
import { newAccountId, openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { pruneEventsJob } from './pruneEventsJob.js';

describe.each(testDatabaseKinds)('maintenance.prune-events on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('deletes dispatched events past retention and keeps recent and pending ones', async () => {
    const accountId = newAccountId();
    const [old, recent, pendingOld] = await publishEvents(database.db, [
      { type: 'old', accountId, data: {} },
      { type: 'recent', accountId, data: {} },
      { type: 'pending-old', accountId, data: {} },
    ]);
    await database.db.update(events).set({ dispatchedAt: sql`now() - interval '8 days'` }).where(eq(events.id, old ?? 0));
    await database.db.update(events).set({ dispatchedAt: sql`now() - interval '6 days'` }).where(eq(events.id, recent ?? 0));
    await database.db.update(events).set({ createdAt: sql`now() - interval '30 days'` }).where(eq(events.id, pendingOld ?? 0));

    const job = pruneEventsJob(database, 7);
    await job.handler({}, { jobId: 'j', retryCount: 0, log: silentLogger(), signal: new AbortController().signal });

    const left = await database.db.select({ type: events.type }).from(events).where(eq(events.accountId, accountId));
    expect(left.map((r) => r.type).sort()).toEqual(['pending-old', 'recent']);
  });
});
