import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { JobDefinition, JobQueue } from './queue.js';
import { campaignExecutionJob } from './campaignExecution.js';
import { campaignReportingJob } from './campaignReporting.js';
import { campaignSchedulerJob } from './campaignScheduler.js';
import { importContactsJob } from './importContacts.js';
import { pruneEventsJob } from './pruneEvents.js';
import { pruneOidcPayloadsJob } from './pruneOidcPayloads.js';
import { messagesReportJob, pruneReportsJob } from './messagesReport.js';

/** Every job the product runs. A new job is defined in its own file and listed here. */
export function jobDefinitions(config: Config, database: Database, jobs: JobQueue): JobDefinition[] {
  return [
    pruneEventsJob(database, config.eventsRetentionDays),
    pruneOidcPayloadsJob(database),
    importContactsJob(database),
    messagesReportJob({ config, database }),
    pruneReportsJob(config),
    campaignExecutionJob(database),
    campaignSchedulerJob(database, jobs),
    campaignReportingJob({ config, database }),
  ];
}
