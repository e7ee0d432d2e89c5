import { renderMail, type MailContent } from '../../platform/mail/templates/layout.js';

const utcText = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The detailed report is ready: the signed link, until when it works, and that it is as good as a password. */
export function messagesReportReadyMail(input: { accountName: string; link: string; expiresAt: Date; messageCount: number }): MailContent {
  const count = input.messageCount === 1 ? '1 message' : `${input.messageCount.toLocaleString('en-US')} messages`;
  return renderMail(`Your detailed message report for ${input.accountName}`, {
    intro: [`The detailed message report of ${input.accountName} is ready: ${count}, as a CSV file.`],
    action: { label: 'Download report', url: input.link },
    outro: [
      `The link works until ${utcText(input.expiresAt)}; then the file is removed. Request the report again from the account settings for a new one.`,
      'Anyone with the link can download the report, so do not forward this email.',
    ],
  });
}

/** The report could not be made even after retries: say so, rather than leave the person waiting. */
export function messagesReportFailedMail(input: { accountName: string }): MailContent {
  return renderMail(`Your detailed message report for ${input.accountName} could not be made`, {
    intro: [`The detailed message report of ${input.accountName} could not be made.`],
    outro: ['Request it again from the account settings in a few minutes. If it fails again, contact your administrator.'],
  });
}
