import { renderMail, type MailContent } from './layout.js';

export function verifyEmailMail(input: { firstName: string; link: string; validHours: number }): MailContent {
  return renderMail('Verify your email address for Parley', {
    name: input.firstName,
    intro: [
      'Thank you for signing up for Parley. Please confirm that this is your email address.',
      'Until it is verified you cannot send messages or make chargeable changes.',
    ],
    action: { label: 'Verify email address', url: input.link },
    outro: [
      `The link works once and expires in ${String(input.validHours)} hours. If it has expired, sign in and ask for a new one.`,
      'If you did not sign up for Parley, ignore this email: nothing happens without the link.',
    ],
  });
}
