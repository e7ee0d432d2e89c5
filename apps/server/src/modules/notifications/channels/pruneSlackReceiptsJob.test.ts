import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db/client.js';
import { slackEventReceipts } from '../../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { pruneSlackReceiptsJob } from './pruneSlackReceiptsJob.js';

describe.each(testDatabaseKinds)('maintenance.prune-slack-event-receipts on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('deletes receipts older than a day and keeps those Slack may still retry', async () => {
    const receipt = (eventId: string, age: string) => ({ eventId, receivedAt: sql`now() - ${age}::interval` });
    await database.db
      .insert(slackEventReceipts)
      .values([receipt('EvJustNow', '0 seconds'), receipt('EvRetried', '6 minutes'), receipt('EvYesterday', '23 hours'), receipt('EvOld', '25 hours'), receipt('EvOlder', '9 days')]);

    const job = pruneSlackReceiptsJob(database);
    expect(job.name).toBe('maintenance.prune-slack-event-receipts');
    expect(job.schedule).toEqual({ cron: '29 * * * *' });
    await job.handler({}, { jobId: 'j', retryCount: 0, log: silentLogger(), signal: new AbortController().signal });

    const left = await database.db.select({ eventId: slackEventReceipts.eventId }).from(slackEventReceipts);
    expect(left.map((r) => r.eventId).sort()).toEqual(['EvJustNow', 'EvRetried', 'EvYesterday']);
    // Nothing left to prune: a second run deletes nothing.
    await job.handler({}, { jobId: 'k', retryCount: 0, log: silentLogger(), signal: new AbortController().signal });
    expect(await database.db.select().from(slackEventReceipts)).toHaveLength(3);
  });
});
