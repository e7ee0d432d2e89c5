import { z } from 'zod';
import { recordResponse } from './pagination.js';

export const profileSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    mobile: z.object({ number: z.string(), country: z.string() }).nullable(),
    /** When the terms were accepted, or null while they are not. */
    tacAccepted: z.iso.datetime().nullable(),
    groups: z.array(z.object({ id: z.uuid(), name: z.string() })),
  })
  .meta({ id: 'Profile' });

export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = recordResponse(profileSchema);

/** An open invitation to the signed-in user's address: the account it would join (its name only). */
export const profileInvitationSchema = z
  .object({
    accountName: z.string(),
    invitedAt: z.iso.datetime(),
  })
  .meta({ id: 'ProfileInvitation' });

export type ProfileInvitation = z.infer<typeof profileInvitationSchema>;

/**
 * GET /v1/profile/invitations: the open invitations to the user's address, oldest first. They become
 * memberships once the address is verified; until then the web app says which account is waiting.
 */
export const profileInvitationsResponseSchema = z.object({ data: z.array(profileInvitationSchema) });

/**
 * What an unverified user with open invitations sees instead of the Create Account questionnaire: the
 * accounts by name ('A', 'A and B', 'A, B and C').
 */
export function invitationWaitingText(accountNames: readonly string[]): string {
  const names = [...accountNames];
  const last = names.pop() ?? '';
  const accounts = names.length === 0 ? last : `${names.join(', ')} and ${last}`;
  return `Verify your e-mail: your invitation to ${accounts} is waiting`;
}
