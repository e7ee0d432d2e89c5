import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Authenticator } from '../identity/authenticator.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Mailer } from '../mail/index.js';

/** What routes and commands are given; built once in main.ts (and by the test server). */
export interface AppContext {
  config: Config;
  log: Logger;
  database: Database;
  jobs: JobQueue;
  authenticator: Authenticator;
  mailer: Mailer;
}
