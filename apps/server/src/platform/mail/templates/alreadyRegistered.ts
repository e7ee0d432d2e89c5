import { renderMail, type MailContent } from './layout.js';

/** Sent instead of a second account when someone signs up with an address that already has one. */
export function alreadyRegisteredMail(input: { firstName: string; signInUrl: string; resetUrl: string | null }): MailContent {
  const reset = input.resetUrl === null ? [] : [`Forgot your password? Reset it here: ${input.resetUrl}`];
  return renderMail('You already have a Parley account', {
    name: input.firstName,
    intro: ['Someone tried to sign up for Parley with this email address, which already has an account.'],
    action: { label: 'Sign in to Parley', url: input.signInUrl },
    outro: [...reset, 'If it was not you, ignore this email: your account has not changed.'],
  });
}
