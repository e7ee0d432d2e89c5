import type { Logger } from 'pino';
import { startServer, type RunningServer, type StartOptions } from '../app/server.js';
import { openTestDatabase, uniqueJobsSchema, type TestDatabaseKind } from './databases.js';
import { testConfig } from './config.js';
import { silentLogger } from './logger.js';

export interface TestServer extends RunningServer {
  /** Base URL of the web role. */
  readonly baseUrl: string;
}

/** The real server on a free port with a database of its own kind, as main.ts starts it. */
export async function startTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: StartOptions & { log?: Logger } = {},
): Promise<TestServer> {
  const database = await openTestDatabase(kind);
  const jobsSchema = uniqueJobsSchema();
  const config = testConfig(env);
  const running = await startServer(config, options.log ?? silentLogger(), {
    webDist: null,
    dispatcherPollMs: 100,
    jobPollingIntervalSeconds: 0.5,
    ...options,
    database,
    jobsSchema,
  });
  return { ...running, baseUrl: running.url ?? '' };
}
