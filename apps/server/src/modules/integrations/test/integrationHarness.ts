import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { IntegrationKind, Role } from '@parley/shared';
import { buildApp, type App } from '../../../app/httpApp.js';
import { createCarrierRegistry } from '../../carriers/registry.js';
import { createMessageHandlers } from '../../messaging/handlers.js';
import { queryRows, type Database } from '../../../platform/db/client.js';
import { JobQueue, type JobContext, type JobDefinition } from '../../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../../platform/mail/localMailbox.js';
import type { Mailer } from '../../../platform/mail/index.js';
import { TableAuthenticator, type HttpMethod } from '../../../test/apiHarness.js';
import { testConfig } from '../../../test/config.js';
import { openTestDatabase, uniqueJobsSchema, type TestDatabaseKind } from '../../../test/databases.js';
import { roleFixtures } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { integrationActivityJob } from '../activityJob.js';
import { integrationSyncJob, type SyncJobDeps } from '../syncJob.js';
import { intercomReplyJob } from '../intercom/intercomReplyJob.js';
import { startActiveCampaignPeer, type ActiveCampaignPeer } from '../activecampaign/test/activeCampaignPeer.js';

/** An ActiveCampaign API URL as an account enters it (the calls go to the peer through ACTIVECAMPAIGN_API_BASE_URL). */
export const AC_API_URL = 'https://acme.api-us1.com';

export interface IntegrationHarness {
  app: App;
  database: Database;
  peer: ActiveCampaignPeer;
  deps: SyncJobDeps;
  jobsSchema: string;
  syncJob: JobDefinition<never>;
  activityJob: JobDefinition<never>;
  intercomReplyJob: JobDefinition<never>;
  /** A fresh account with a user per role; tokens by role. */
  account(): Promise<{ accountId: string; users: Record<Role, string>; tokens: Record<Role, string> }>;
  /** A bearer token for a user made elsewhere (a sending account's administrator). */
  tokenFor(userId: string): string;
  call(method: HttpMethod, url: string, token: string, body?: object): Promise<LightMyRequestResponse>;
  /** Runs a job's handler as the worker would, awaited. */
  run(definition: JobDefinition<never>, data: object, retryCount?: number): Promise<void>;
  /** Jobs of a name in the queue: their data and when they may start. */
  queued(name: string): Promise<{ data: Record<string, unknown>; start_after: Date }[]>;
  close(): Promise<void>;
}

const jobContext = (retryCount: number): JobContext => ({ jobId: 'test', retryCount, log: silentLogger(), signal: new AbortController().signal });

/**
 * The app with the integrations' jobs in a queue of its own (nothing works it: tests run handlers) and an
 * ActiveCampaign peer; `env` adds configuration (another provider's peer).
 */
export async function startIntegrationHarness(kind: TestDatabaseKind, env: Record<string, string> = {}): Promise<IntegrationHarness> {
  const peer = await startActiveCampaignPeer();
  const database = await openTestDatabase(kind);
  const log = silentLogger();
  const config = testConfig({ ACTIVECAMPAIGN_API_BASE_URL: peer.url, PUBLIC_URL: 'http://parley.test', ...env });
  const jobsSchema = uniqueJobsSchema();
  const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: jobsSchema });
  const mailer: Mailer = createLocalMailbox(database.db);
  const deps: SyncJobDeps = { db: database.db, config, jobs, mailer };
  const syncJob = integrationSyncJob(deps) as unknown as JobDefinition<never>;
  const activityJob = integrationActivityJob(deps) as unknown as JobDefinition<never>;
  const intercomReplies = intercomReplyJob(deps) as unknown as JobDefinition<never>;
  await jobs.start([syncJob, activityJob, intercomReplies]);
  const authenticator = new TableAuthenticator();
  const app = await buildApp(
    { config, log, database, jobs, authenticator, mailer, carriers: createCarrierRegistry('simulator', { deployment: {} }), carrierHandlers: createMessageHandlers({ database, log }) },
    { webDist: null },
  );
  await app.ready();
  return {
    app,
    database,
    peer,
    deps,
    jobsSchema,
    syncJob,
    activityJob,
    intercomReplyJob: intercomReplies,
    async account() {
      const fixtures = await roleFixtures(database.db);
      const tokens = Object.fromEntries(Object.entries(fixtures.users).map(([role, userId]) => [role, authenticator.add({ userId, accountIds: [] })])) as Record<Role, string>;
      return { ...fixtures, tokens };
    },
    tokenFor: (userId) => authenticator.add({ userId, accountIds: [] }),
    call: (method, url, token, body) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body }) }),
    run: (definition, data, retryCount = 0) => definition.handler(data as never, jobContext(retryCount)),
    queued: (name) =>
      queryRows<{ data: Record<string, unknown>; start_after: Date }>(
        database.db,
        sql`select data, start_after from ${sql.identifier(jobsSchema)}.job where name = ${name} and state = 'created' order by created_on`,
      ),
    async close() {
      await app.close();
      await jobs.stop(1000);
      await database.close();
      await peer.close();
    },
  };
}

/**
 * The OAuth dance as a browser makes it: start, the peer's authorize (consent) page, the callback, with the
 * state altered when `tamper`. Answers where the callback sent the browser.
 */
export async function connectThroughOAuth(h: IntegrationHarness, kind: IntegrationKind, accountId: string, token: string, tamper = false): Promise<string> {
  const start = await h.call('GET', `/v1/accounts/${accountId}/integrations/${kind}/oauth/start`, token);
  expect(start.statusCode, start.body).toBe(200);
  const authorize = await fetch(start.json<{ data: { url: string } }>().data.url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location') ?? '');
  if (tamper) back.searchParams.set('state', `${back.searchParams.get('state') ?? ''}x`);
  const callback = await h.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}
