import type { CampaignJobReport, JobReportInvalid } from '@parley/shared';
import type { CampaignJobReportRecord, JobReportInvalidRecord } from './campaignJobReport.js';

/** A left-out entry with only the fields it has (an unknown row has no contact, a removed contact no name). */
function presentInvalid(entry: JobReportInvalidRecord): JobReportInvalid {
  return {
    ...(entry.contactId === null ? {} : { contactId: entry.contactId }),
    ...(entry.mobile === null ? {} : { mobile: entry.mobile }),
    ...(entry.firstName === null ? {} : { firstName: entry.firstName }),
    ...(entry.lastName === null ? {} : { lastName: entry.lastName }),
    reason: entry.reason,
    description: entry.description,
    ...(entry.row === null ? {} : { row: entry.row }),
  };
}

/** The job report of a campaign execution (docs/campaigns.md, The job report; report { name, id, job, statistics, errors }). */
export function presentCampaignJobReport(record: CampaignJobReportRecord): CampaignJobReport {
  const { job } = record;
  return {
    name: 'campaign',
    id: job.id,
    job: {
      id: job.id,
      campaignId: job.campaignId,
      created: { at: job.createdAt.toISOString() },
      status: job.status,
      error: job.errorDescription === null ? null : { description: job.errorDescription },
      invalid: job.invalid.map(presentInvalid),
      invalidCount: job.invalidCount,
    },
    statistics: record.statistics,
    errors: record.errors,
    resendable: record.resendable,
  };
}
