import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { JobDefinition } from './queue.js';
import { importContactsJob } from './importContacts.js';
import { pruneEventsJob } from './pruneEvents.js';
import { pruneOidcPayloadsJob } from './pruneOidcPayloads.js';

/** Every job the product runs. A new job is defined in its own file and listed here. */
export function jobDefinitions(config: Config, database: Database): JobDefinition[] {
  return [pruneEventsJob(database, config.eventsRetentionDays), pruneOidcPayloadsJob(database), importContactsJob(database)];
}
