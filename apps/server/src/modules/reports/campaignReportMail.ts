import { campaignInvalidReasonLabels, campaignInvalidReasons } from '@parley/shared';
import type { ExecutionRecord } from '../campaigns/index.js';
import { renderMail, type MailContent } from '../../platform/mail/templates/layout.js';

const utcText = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const count = (n: number): string => n.toLocaleString('en-US');
/** 'undelivered' → 'Undelivered'. */
const statusLabel = (status: string): string => status.charAt(0).toUpperCase() + status.slice(1);

/** The execution as its row shows it (modules/campaigns/campaignExecutions.ts), with the names and the link. */
export interface CampaignReportMailInput
  extends Pick<
    ExecutionRecord,
    'status' | 'createdAt' | 'finishedAt' | 'recipients' | 'submitted' | 'failures' | 'incoming' | 'price' | 'errorDescription' | 'invalidCounts'
  > {
  accountName: string;
  campaignName: string;
  /** Outgoing messages by status, as the job report counts them. */
  statuses: readonly { status: string; count: number }[];
  link: string;
}

function statusLine(input: CampaignReportMailInput): string {
  switch (input.status) {
    case 'running':
      return `It is still sending: ${count(input.submitted)} of ${count(input.recipients)} messages queued so far.`;
    case 'done':
      return `It finished at ${utcText(input.finishedAt ?? input.createdAt)}.`;
    case 'failed':
      return `It stopped at ${utcText(input.finishedAt ?? input.createdAt)}: ${input.errorDescription ?? 'no reason was recorded'}`;
  }
}

/** The summary of one execution that a campaign's reporting sends to its destinations. */
export function campaignReportMail(input: CampaignReportMailInput): MailContent {
  const invalid = campaignInvalidReasons
    .filter((reason) => (input.invalidCounts[reason] ?? 0) > 0)
    .map((reason) => `${campaignInvalidReasonLabels[reason]} ${count(input.invalidCounts[reason] ?? 0)}`);
  const invalidTotal = campaignInvalidReasons.reduce((sum, reason) => sum + (input.invalidCounts[reason] ?? 0), 0);
  const statuses = input.statuses.filter((s) => s.count > 0).map((s) => `${statusLabel(s.status)} ${count(s.count)}`);
  return renderMail(`Campaign report: ${input.campaignName}`, {
    intro: [
      `The execution of the campaign "${input.campaignName}" of ${input.accountName} started at ${utcText(input.createdAt)}. ${statusLine(input)}`,
      `Recipients: ${count(input.recipients)}. Submitted: ${count(input.submitted)}. Failures: ${count(input.failures)}. Replies: ${count(input.incoming)}. Outbound price: $${input.price}.`,
      statuses.length > 0 ? `Messages by status: ${statuses.join(', ')}.` : 'No messages were sent.',
      invalidTotal > 0 ? `Left out: ${count(invalidTotal)} (${invalid.join(', ')}).` : 'No contact was left out.',
    ],
    action: { label: 'Open the campaigns', url: input.link },
    outro: ['This summary is sent because the campaign names this address in its reporting settings.'],
  });
}
