import { z } from 'zod';
import { emailAddress, requiredText } from '../forms.js';
import { roles } from '../permissions.js';
import { validationMessages } from '../validation.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/** A member answers 'active'; someone invited by e-mail who has not joined yet answers 'invited'. */
export const accountUserStatuses = ['active', 'invited'] as const;
export type AccountUserStatus = (typeof accountUserStatuses)[number];

export const accountUserSchema = z
  .object({
    /** The user's id for a member, the invitation's id for an invitee. */
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    role: z.enum(roles),
    status: z.enum(accountUserStatuses),
  })
  .meta({ id: 'AccountUser' });

export type AccountUser = z.infer<typeof accountUserSchema>;

export const accountUserListQuerySchema = listQuerySchema;
export const accountUserListSchema = listResponse(accountUserSchema);
export const accountUserRecordSchema = recordResponse(accountUserSchema);

const roleField = z.enum(roles, { message: validationMessages.required });

/** The user dialog when adding someone (all four fields required). */
export const createAccountUserSchema = z
  .object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    email: emailAddress,
    role: roleField,
  })
  .meta({ id: 'CreateAccountUser' });

export type CreateAccountUserInput = z.input<typeof createAccountUserSchema>;
export type CreateAccountUser = z.output<typeof createAccountUserSchema>;

export const EMAIL_NOT_EDITABLE_MESSAGE = 'The email of an existing user cannot be changed.';

/**
 * The user dialog when editing: only the role changes. The dialog sends the rest of the user back as it
 * was, so the e-mail may come along (the server refuses a different one); other fields are ignored.
 */
export const updateAccountUserSchema = z
  .object({
    role: roleField,
    email: z.string().optional(),
  })
  .meta({ id: 'UpdateAccountUser' });

export type UpdateAccountUserInput = z.input<typeof updateAccountUserSchema>;
export type UpdateAccountUser = z.output<typeof updateAccountUserSchema>;

export const USER_ALREADY_MEMBER_MESSAGE = 'That person is already a user of this account.';
export const USER_ALREADY_INVITED_MESSAGE = 'That person has already been invited to this account.';
export const LAST_ADMINISTRATOR_MESSAGE = 'An account must keep at least one administrator.';

/** An open invitation's e-mail may be sent again at most this often. */
export const INVITATION_RESEND_INTERVAL_SECONDS = 60;
export const INVITATION_RESENT_RECENTLY_MESSAGE = 'This invitation was sent less than a minute ago. Wait a minute and try again.';
export const INVITATION_NOT_SENT_MESSAGE = 'The invitation email could not be sent. Try again later.';
