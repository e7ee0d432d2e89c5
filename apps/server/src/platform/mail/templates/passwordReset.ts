import { renderMail, type MailContent } from './layout.js';

export function passwordResetMail(input: { firstName: string; link: string; validMinutes: number }): MailContent {
  return renderMail('Reset your Parley password', {
    name: input.firstName,
    intro: ['Someone asked to reset the password of the Parley account for this email address.'],
    action: { label: 'Choose a new password', url: input.link },
    outro: [
      `The link works once and expires in ${String(input.validMinutes)} minutes.`,
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
  });
}
