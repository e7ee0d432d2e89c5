import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createSendingSetup, queueTestMessages } from './test/dispatcherFixtures.js';
import { sendingIdle } from './sendingIdle.js';

describe.each(testDatabaseKinds)('sendingIdle on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('is idle with nothing due, and not while a message is due or being sent', async () => {
    expect(await sendingIdle(database.db)).toBe(true);
    const setup = await createSendingSetup(database.db);
    // Held until tomorrow (quiet hours, a schedule): nothing to do now.
    await queueTestMessages(database.db, setup, { count: 1, sendAfter: new Date(Date.now() + 86_400_000) });
    expect(await sendingIdle(database.db)).toBe(true);

    const [id] = await queueTestMessages(database.db, setup, { count: 1 });
    expect(await sendingIdle(database.db)).toBe(false);
    await database.db.execute(sql`update messages set status = 'sending', claimed_at = now() where id = ${id}`);
    expect(await sendingIdle(database.db)).toBe(false);
    await database.db.execute(sql`update messages set status = 'sent', claimed_at = null where id = ${id}`);
    expect(await sendingIdle(database.db)).toBe(true);
  });

  it('is not idle while a campaign execution prepares or queues its messages', async () => {
    const setup = await createSendingSetup(database.db);
    const jobId = randomUUID();
    await database.db.execute(sql`insert into campaign_jobs (id, account_id, status, phone_number_filter)
      values (${jobId}, ${setup.accountId}, 'preparing', '{}')`);
    expect(await sendingIdle(database.db)).toBe(false);
    await database.db.execute(sql`update campaign_jobs set status = 'running' where id = ${jobId}`);
    expect(await sendingIdle(database.db)).toBe(false);
    await database.db.execute(sql`update campaign_jobs set status = 'done', finished_at = now() where id = ${jobId}`);
    expect(await sendingIdle(database.db)).toBe(true);
  });
});
