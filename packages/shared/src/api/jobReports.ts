import { z } from 'zod';
import { campaignInvalidReasons } from './campaigns.js';
import { messageStatuses, type MessageStatus } from './messages.js';
import { recordResponse } from './pagination.js';

/**
 * The job report of a campaign execution (dialog 'Message Report';
 * GET .../reports/{name}/{id}) and the resending of its failed messages (POST
 * .../reports/campaign/{id}/resend, a path of Parley's own). docs/campaigns.md, "The job report", has
 * the rules: what is counted, which recipients a resend texts.
 */

export const JOB_REPORT_TITLE = 'Message Report';
/** The reports a job has: only campaign executions today. */
export const jobReportNames = ['campaign'] as const;
export type JobReportName = (typeof jobReportNames)[number];

/** Left-out contacts the report lists (the count says how many there are in all). */
export const JOB_REPORT_INVALID_LISTED = 1000;
/** Distinct error descriptions the report lists, the most frequent first. */
export const JOB_REPORT_ERRORS_LISTED = 100;

export const RESEND_FAILED_LABEL = 'Resend Failed';
export const RESEND_FAILED_QUESTION = 'Resend Failed Messages?';
export const RESEND_NOTHING_MESSAGE =
  'Nothing to resend: no failed message of this execution is left that may be sent again.';
export const RESEND_RUNNING_MESSAGE = 'This execution is still sending. Resend its failed messages once it has finished.';
export const JOB_REPORT_NO_OUTGOING = 'No messages have been sent yet.';
export const JOB_REPORT_NO_INCOMING = 'No replies have been received.';

/** A message status as the report shows it. */
export const jobReportStatusLabels: Readonly<Record<MessageStatus, string>> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Undelivered',
  failed: 'Failed',
  received: 'Received',
};

/** A contact or file row left out of the execution, with the contact's name when it still exists. */
export const jobReportInvalidSchema = z
  .object({
    contactId: z.uuid().optional(),
    mobile: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    reason: z.enum(campaignInvalidReasons),
    description: z.string(),
    /** File Upload: the row of the file. */
    row: z.number().int().optional(),
  })
  .meta({ id: 'JobReportInvalidContact' });

export type JobReportInvalid = z.infer<typeof jobReportInvalidSchema>;

/**
 * Messages of the job by status: its outgoing messages (`outgoing: true`), and the replies received in the
 * conversations it texted after its message there (`outgoing: false`). Only statuses with messages appear.
 */
export const jobReportStatisticSchema = z
  .object({
    status: z.enum(messageStatuses),
    count: z.number().int(),
    outgoing: z.boolean(),
  })
  .meta({ id: 'JobReportStatistic' });

export type JobReportStatistic = z.infer<typeof jobReportStatisticSchema>;

/** Why messages failed or recipients were not sent, with how many. */
export const jobReportErrorSchema = z
  .object({ description: z.string(), count: z.number().int() })
  .meta({ id: 'JobReportError' });

export type JobReportError = z.infer<typeof jobReportErrorSchema>;

export const campaignJobReportSchema = z
  .object({
    name: z.enum(jobReportNames),
    id: z.uuid(),
    job: z.object({
      id: z.uuid(),
      campaignId: z.uuid().nullable(),
      created: z.object({ at: z.iso.datetime() }),
      status: z.enum(['running', 'done', 'failed']),
      error: z.object({ description: z.string() }).nullable(),
      /** The first JOB_REPORT_INVALID_LISTED left out. */
      invalid: z.array(jobReportInvalidSchema),
      invalidCount: z.number().int(),
    }),
    statistics: z.array(jobReportStatisticSchema),
    errors: z.array(jobReportErrorSchema),
    /** Recipients a resend would text now (consent allowing). */
    resendable: z.number().int(),
  })
  .meta({ id: 'CampaignJobReport' });

export type CampaignJobReport = z.infer<typeof campaignJobReportSchema>;
export const campaignJobReportRecordSchema = recordResponse(campaignJobReportSchema).meta({ id: 'CampaignJobReportRecord' });
