import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { oidcPayloads } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { pruneOidcPayloadsJob } from './pruneOidcPayloadsJob.js';

const run = (job: ReturnType<typeof pruneOidcPayloadsJob>) =>
  job.handler({}, { jobId: 'j', retryCount: 0, log: silentLogger(), signal: new AbortController().signal });

describe.each(testDatabaseKinds)('maintenance.prune-oidc-payloads on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('deletes expired rows in batches and keeps live rows and rows without an expiry', async () => {
    const row = (model: string, id: string, expiresAt: ReturnType<typeof sql> | null) => ({
      model,
      id,
      payload: { accountId: 'someone' },
      expiresAt,
    });
    await database.db.insert(oidcPayloads).values([
      ...Array.from({ length: 7 }, (_, i) => row('Session', `old-${String(i)}`, sql`now() - interval '1 minute'`)),
      row('RefreshToken', 'old-token', sql`now() - interval '31 days'`),
      row('Session', 'live', sql`now() + interval '1 day'`),
      row('RefreshToken', 'live-token', sql`now() + interval '1 hour'`),
      row('Client', 'no-expiry', null),
    ] as (typeof oidcPayloads.$inferInsert)[]);

    // A batch of 3 needs three rounds for the 8 expired rows.
    await run(pruneOidcPayloadsJob(database, 3));

    const left = await database.db.select({ model: oidcPayloads.model, id: oidcPayloads.id }).from(oidcPayloads);
    expect(left.map((r) => `${r.model}:${r.id}`).sort()).toEqual(['Client:no-expiry', 'RefreshToken:live-token', 'Session:live']);
  });

  it('leaves a row that is still readable (expiring later) alone, and runs on an empty backlog', async () => {
    await database.db.delete(oidcPayloads);
    await database.db.insert(oidcPayloads).values({ model: 'Grant', id: 'g', payload: {}, expiresAt: new Date(Date.now() + 5000) });
    await run(pruneOidcPayloadsJob(database));
    const [grant] = await database.db.select().from(oidcPayloads).where(eq(oidcPayloads.id, 'g'));
    expect(grant?.model).toBe('Grant');
  });
});
