import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Authenticator, Principal } from '../modules/identity/authenticator.js';
import { buildCarrierRegistry } from '../modules/carriers/deployment.js';
import type { CarrierRegistry } from '../modules/carriers/registry.js';
import { buildApp, type App } from '../app/httpApp.js';
import { JobQueue } from '../platform/jobs/queue.js';
import { createMessageHandlers } from '../modules/messaging/handlers.js';
import { createLocalMailbox } from '../platform/mail/localMailbox.js';
import type { Database } from '../platform/db/client.js';
import { testConfig } from './config.js';
import { openTestDatabase, type TestDatabaseKind } from './databases.js';
import { silentLogger } from './logger.js';

/** Tokens are opaque names: route tests exercise the routes, not token verification. */
export class TableAuthenticator implements Authenticator {
  readonly principals = new Map<string, Principal>();
  add(principal: Principal): string {
    const token = randomUUID();
    this.principals.set(token, principal);
    return token;
  }
  authenticate(token: string): Promise<Principal | null> {
    return Promise.resolve(this.principals.get(token) ?? null);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiHarness {
  app: App;
  database: Database;
  authenticator: TableAuthenticator;
  /** The deployment's carriers as the config describes them (the simulator by default), not started. */
  carriers: CarrierRegistry;
  /** A bearer token for a user (memberships decide the rest). */
  tokenFor(userId: string): string;
  /** One request with an optional bearer token and JSON body. */
  call(method: HttpMethod, url: string, token?: string, body?: object): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The app over a database of its own, with the local mailbox and no workers. */
export async function startApiHarness(kind: TestDatabaseKind, env: Record<string, string> = {}): Promise<ApiHarness> {
  const database = await openTestDatabase(kind);
  const config = testConfig(env);
  const log = silentLogger();
  const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1 });
  const authenticator = new TableAuthenticator();
  const carriers = buildCarrierRegistry(config, database, log);
  const app = await buildApp(
    { config, log, database, jobs, authenticator, mailer: createLocalMailbox(database.db), carriers, carrierHandlers: createMessageHandlers({ database, log }) },
    { webDist: null },
  );
  await app.ready();
  return {
    app,
    database,
    authenticator,
    carriers,
    tokenFor: (userId) => authenticator.add({ userId, accountIds: [] }),
    call: (method, url, token, body) =>
      app.inject({
        method,
        url,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body }),
      }),
    async close() {
      await app.close();
      await carriers.stop();
      await database.close();
    },
  };
}
