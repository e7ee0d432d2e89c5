import { renderMail, type MailContent } from './layout.js';

export interface InvitationMailInput {
  firstName: string;
  accountName: string;
  /** Who invited them; null when an API client did. */
  inviterName: string | null;
  roleLabel: string;
  link: string;
}

const invitedBy = (input: InvitationMailInput): string =>
  input.inviterName === null ? 'You have been invited' : `${input.inviterName} has invited you`;

/**
 * The invitation is taken up once the address is verified: by signing up with it, or (for someone who
 * signed up but never verified) by signing in and verifying.
 */
export function invitationMail(input: InvitationMailInput & { hasUser: boolean }): MailContent {
  return renderMail(`You are invited to ${input.accountName} on Parley`, {
    name: input.firstName,
    intro: [
      `${invitedBy(input)} to join ${input.accountName} on Parley as ${input.roleLabel}.`,
      input.hasUser
        ? 'Sign in and verify this email address; once it is verified you are a user of the account.'
        : 'Sign up with this email address; once it is verified you are a user of the account.',
    ],
    action: input.hasUser ? { label: 'Sign in', url: input.link } : { label: 'Sign up', url: input.link },
    outro: ['If you did not expect this invitation, ignore this email: nothing happens unless you sign up.'],
  });
}

/** For someone who already has a Parley user: they are a member already, this only tells them. */
export function addedToAccountMail(input: InvitationMailInput): MailContent {
  const added = input.inviterName === null ? 'You have been added' : `${input.inviterName} has added you`;
  return renderMail(`You now have access to ${input.accountName} on Parley`, {
    name: input.firstName,
    intro: [`${added} to ${input.accountName} on Parley as ${input.roleLabel}.`],
    action: { label: 'Sign in', url: input.link },
    outro: ['The account appears in your list of accounts the next time you sign in.'],
  });
}
