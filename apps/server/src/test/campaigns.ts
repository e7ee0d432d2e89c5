import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CampaignExecution, SaveCampaignInput } from '@parley/shared';
import { createCarrierRegistry } from '../modules/carriers/registry.js';
import { queryRows, type Database, type Queryable } from '../platform/db/client.js';
import { campaigns, type CampaignRow } from '../platform/db/schema/index.js';
import { buildApp, type App } from '../app/httpApp.js';
import { campaignExecutionJob } from '../modules/campaigns/campaignExecutionJob.js';
import { JobQueue } from '../platform/jobs/queue.js';
import { createLocalMailbox } from '../platform/mail/localMailbox.js';
import { createMessageHandlers } from '../modules/messaging/handlers.js';
import { TableAuthenticator, type HttpMethod } from './apiHarness.js';
import { testConfig } from './config.js';
import { openTestDatabase, uniqueJobsSchema, type TestDatabaseKind } from './databases.js';
import { silentLogger } from './logger.js';

/* Test support for campaigns: campaigns written directly, a save body, and an app whose job queue takes jobs. */

/** A Manual campaign of the account sending `template` from `group` to everyone, unless `overrides` says otherwise. */
export async function insertCampaign(
  q: Queryable,
  accountId: string,
  group: string,
  overrides: Partial<typeof campaigns.$inferInsert> = {},
): Promise<CampaignRow> {
  const [row] = await q
    .insert(campaigns)
    .values({
      id: uuidv7(),
      accountId,
      name: `Campaign ${uuidv7()}`,
      messagingType: 'marketing',
      trigger: 'M',
      phoneNumberFilter: { group },
      filters: { tags: [], attributes: [], lists: [], contacts: [] },
      template: 'Hello {{{firstName}}}',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('campaign insert returned nothing');
  return row;
}

/** A valid body for POST/PUT .../campaigns (a Manual campaign), with `overrides` on top. */
export const campaignBody = (group: string, overrides: Partial<SaveCampaignInput> = {}): SaveCampaignInput => ({
  name: 'Spring sale',
  messagingType: 'marketing',
  phoneNumberFilter: { group },
  trigger: { code: 'M' },
  template: 'Hi {{{firstName}}}, 20% off this week.',
  ...overrides,
});

/** The pg-boss jobs queued to send an execution, by its id. */
export async function queuedExecutionJobs(q: Queryable, jobsSchema: string, campaignJobId: string): Promise<{ state: string }[]> {
  return queryRows<{ state: string }>(
    q,
    sql`select state from ${sql.identifier(jobsSchema)}.job where name = 'campaigns.execute' and data->>'campaignJobId' = ${campaignJobId}`,
  );
}

export interface CampaignHarness {
  app: App;
  database: Database;
  jobs: JobQueue;
  jobsSchema: string;
  tokenFor(userId: string): string;
  call(method: HttpMethod, url: string, token?: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The app over a database of its own with a started job queue (nothing works its jobs: tests run them). */
export async function startCampaignHarness(kind: TestDatabaseKind): Promise<CampaignHarness> {
  const database = await openTestDatabase(kind);
  const log = silentLogger();
  const jobsSchema = uniqueJobsSchema();
  const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: jobsSchema });
  await jobs.start([campaignExecutionJob(database)]);
  const authenticator = new TableAuthenticator();
  const app = await buildApp(
    {
      config: testConfig({}),
      log,
      database,
      jobs,
      authenticator,
      mailer: createLocalMailbox(database.db),
      carriers: createCarrierRegistry('simulator', { deployment: {} }),
      carrierHandlers: createMessageHandlers({ database, log }),
    },
    { webDist: null },
  );
  await app.ready();
  return {
    app,
    database,
    jobs,
    jobsSchema,
    tokenFor: (userId) => authenticator.add({ userId, accountIds: [] }),
    call(method, url, token, body, headers = {}) {
      const all: Record<string, string> = {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined || typeof body === 'string' ? {} : { 'content-type': 'application/json' }),
        ...headers,
      };
      return app.inject({ method, url, headers: all, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }) });
    },
    async close() {
      await app.close();
      await jobs.stop(1000);
      await database.close();
    },
  };
}

export type ExecutionAnswer = { data: CampaignExecution };
