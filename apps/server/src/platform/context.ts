import type { Logger } from 'pino';
import type { CarrierRegistry, EngineHandlers } from '../modules/carriers/index.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Authenticator } from '../modules/identity/index.js';
import type { JobQueue } from './jobs/queue.js';
import type { Mailer } from './mail/index.js';
import type { MediaServices } from '../modules/media/index.js';
import type { PaymentProviders } from '../modules/billing/index.js';

/** What routes and commands are given; built once in main.ts (and by the test server). */
export interface AppContext {
  config: Config;
  log: Logger;
  database: Database;
  jobs: JobQueue;
  authenticator: Authenticator;
  mailer: Mailer;
  /** The carriers numbers send through (the simulator by default). */
  carriers: CarrierRegistry;
  /** What carriers hand receipts and inbound messages to (webhooks call them from the web role). */
  carrierHandlers: EngineHandlers;
  /** Media storage and URL signing; left out (tests), the routes build it from the config. */
  media?: MediaServices;
  /** The payment provider (docs/billing.md); left out (tests), the routes make one from the config. */
  payments?: PaymentProviders;
}
