import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/client.js';
import type { MediaStorage } from '../modules/media/index.js';
import { createMediaStorage } from '../modules/media/index.js';
import type { JobDefinition, JobQueue } from '../platform/jobs/queue.js';
import { campaignExecutionJob } from '../modules/campaigns/index.js';
import { campaignReportingJob } from '../modules/campaigns/index.js';
import { campaignSchedulerJob } from '../modules/campaigns/index.js';
import { checkNumberTypesJob, importContactsJob, refineNumberTypesJob } from '../modules/contacts/index.js';
import { lineTypeForContact } from '../modules/tools/index.js';
import { sweepUnnamedMediaJob, sweepUnreferencedMediaJob } from '../modules/media/index.js';
import { recheckDomainsJob } from '../modules/links/index.js';
import { pruneDeliveriesJob, pruneSlackReceiptsJob } from '../modules/notifications/index.js';
import { billingJobs } from '../modules/billing/index.js';
import { createMailer } from '../platform/mail/index.js';
import { pruneEventsJob } from '../platform/events/pruneEventsJob.js';
import { foldRowCountsJob } from '../platform/db/rowCounts.js';
import { pruneIdempotencyKeysJob } from '../platform/http/idempotency.js';
import { pruneOidcPayloadsJob } from '../modules/identity/index.js';
import { messagesReportJob, pruneReportsJob } from '../modules/reports/index.js';
import { calendarCancelJob, calendarReminderRunJob, calendarReminderSchedulerJob, emailReplyJob, integrationActivityJob, integrationSyncJob, intercomReplyJob } from '../modules/integrations/index.js';

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
  const mailer = createMailer(config, database);
  const integrationDeps = { db: database.db, config, jobs, mailer };
  const calendarReminderRuns = calendarReminderRunJob(integrationDeps);
  return [
    pruneEventsJob(database, config.eventsRetentionDays),
    pruneIdempotencyKeysJob(database),
    pruneDeliveriesJob(database),
    pruneSlackReceiptsJob(database),
    pruneOidcPayloadsJob(database),
    foldRowCountsJob(database),
    importContactsJob(database),
    checkNumberTypesJob(database),
    // Only a lookup provider confirms a range's type; without one the range's is the answer.
    ...(config.lookups.provider === 'offline'
      ? []
      : [refineNumberTypesJob(database, (number) => lineTypeForContact({ db: database.db, lookups: config.lookups }, number))]),
    messagesReportJob({ config, database }),
    pruneReportsJob(config),
    campaignExecutionJob(database),
    campaignSchedulerJob(database, jobs),
    campaignReportingJob({ config, database }),
    sweepUnreferencedMediaJob(database, mediaStorage),
    sweepUnnamedMediaJob(database, mediaStorage),
    ...billingJobs(config, database, mailer),
    recheckDomainsJob(database, config.links),
    integrationSyncJob(integrationDeps),
    integrationActivityJob(integrationDeps),
    emailReplyJob(integrationDeps),
    intercomReplyJob(integrationDeps),
    calendarReminderRuns,
    calendarReminderSchedulerJob(integrationDeps, calendarReminderRuns),
    calendarCancelJob(integrationDeps),
  ];
}
