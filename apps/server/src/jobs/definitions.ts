import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { MediaStorage } from '../media/storage.js';
import { createMediaStorage } from '../media/storageFromConfig.js';
import type { JobDefinition, JobQueue } from './queue.js';
import { campaignExecutionJob } from './campaignExecution.js';
import { campaignReportingJob } from './campaignReporting.js';
import { campaignSchedulerJob } from './campaignScheduler.js';
import { importContactsJob } from './importContacts.js';
import { sweepUnnamedMediaJob, sweepUnreferencedMediaJob } from './mediaSweep.js';
import { pruneEventsJob } from './pruneEvents.js';
import { pruneOidcPayloadsJob } from './pruneOidcPayloads.js';
import { messagesReportJob, pruneReportsJob } from './messagesReport.js';

/**
 * Every job the product runs. A new job is defined in its own file and listed here. The media sweeps use the
 * server's storage when given, else one made from the config.
 */
export function jobDefinitions(
  config: Config,
  database: Database,
  jobs: JobQueue,
  mediaStorage: MediaStorage = createMediaStorage(config.media.storage),
): JobDefinition[] {
  return [
    pruneEventsJob(database, config.eventsRetentionDays),
    pruneOidcPayloadsJob(database),
    importContactsJob(database),
    messagesReportJob({ config, database }),
    pruneReportsJob(config),
    campaignExecutionJob(database),
    campaignSchedulerJob(database, jobs),
    campaignReportingJob({ config, database }),
    sweepUnreferencedMediaJob(database, mediaStorage),
    sweepUnnamedMediaJob(database, mediaStorage),
  ];
}
