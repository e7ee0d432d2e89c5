import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  roleLabels,
  USER_ALREADY_INVITED_MESSAGE,
  USER_ALREADY_MEMBER_MESSAGE,
  type CreateAccountUser,
} from '@parley/shared';
import type { Tx } from '../db/client.js';
import { accountMembers, invitations } from '../db/schema/index.js';
import type { AppContext } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { findUserByEmail, findUserById } from '../identity/users.js';
import { addedToAccountMail, invitationMail } from '../mail/templates/invitation.js';
import { lockAccount } from './accountLock.js';
import { findMember, findOpenInvitation, type AccountUserRecord } from './accountUsers.js';

export interface InviteInput {
  accountId: string;
  /** The signed-in user who adds the person; null for an API client. */
  inviterId: string | null;
  user: CreateAccountUser;
}

type Notice = { kind: 'added' | 'invited' | 'verifyToJoin'; accountName: string; inviterName: string | null };

async function inviterName(tx: Tx, inviterId: string | null): Promise<string | null> {
  if (inviterId === null) return null;
  const inviter = await findUserById(tx, inviterId);
  const name = `${inviter?.firstName ?? ''} ${inviter?.lastName ?? ''}`.trim();
  return name === '' ? null : name;
}

/**
 * Adds a person to an account. Someone with a verified Parley user becomes a member at once; anyone
 * else gets an invitation, taken up when they sign up (or verify) with that address. An unverified
 * user is invited rather than added: whoever signed up with an address they do not own must not join
 * an account through it.
 */
export async function inviteUser(ctx: AppContext, input: InviteInput): Promise<AccountUserRecord> {
  const { accountId, user } = input;
  const { record, notice } = await ctx.database.db.transaction(async (tx) => {
    const account = await lockAccount(tx, accountId);
    const existing = await findUserByEmail(tx, user.email);
    if (existing && (await findMember(tx, accountId, existing.id))) {
      throw new AppError(409, 'conflict', USER_ALREADY_MEMBER_MESSAGE);
    }
    const base = { accountName: account.name, inviterName: await inviterName(tx, input.inviterId) };
    if (existing?.emailVerifiedAt) {
      await tx.insert(accountMembers).values({ accountId, userId: existing.id, role: user.role });
      // An older invitation for the same address is now fulfilled.
      await tx
        .update(invitations)
        .set({ acceptedAt: new Date() })
        .where(and(eq(invitations.accountId, accountId), eq(invitations.email, existing.email), isNull(invitations.acceptedAt)));
      const added: AccountUserRecord = {
        kind: 'member',
        userId: existing.id,
        firstName: existing.firstName,
        lastName: existing.lastName,
        email: existing.email,
        role: user.role,
      };
      return { record: added, notice: { kind: 'added', ...base } satisfies Notice };
    }
    if (await findOpenInvitation(tx, accountId, { email: user.email })) {
      throw new AppError(409, 'conflict', USER_ALREADY_INVITED_MESSAGE);
    }
    const id = uuidv7();
    await tx.insert(invitations).values({
      id,
      accountId,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      invitedBy: input.inviterId,
    });
    const invited: AccountUserRecord = { kind: 'invitation', invitationId: id, ...user };
    return { record: invited, notice: { kind: existing ? 'verifyToJoin' : 'invited', ...base } satisfies Notice };
  });
  // The membership or invitation stands either way; an administrator can remove and add again to resend.
  await ctx.mailer.send({ to: record.email, ...noticeMail(ctx.config.publicUrl, record, notice) }).catch((err: unknown) => {
    ctx.log.warn({ err, accountId }, 'invitation email not sent');
  });
  return record;
}

function noticeMail(publicUrl: string, record: AccountUserRecord, notice: Notice) {
  const common = {
    firstName: record.firstName,
    accountName: notice.accountName,
    inviterName: notice.inviterName,
    roleLabel: roleLabels[record.role],
  };
  switch (notice.kind) {
    case 'added':
      return addedToAccountMail({ ...common, link: `${publicUrl}/login` });
    case 'verifyToJoin':
      return invitationMail({ ...common, hasUser: true, link: `${publicUrl}/login` });
    case 'invited': {
      const query = new URLSearchParams({ email: record.email, first_name: record.firstName, last_name: record.lastName });
      return invitationMail({ ...common, hasUser: false, link: `${publicUrl}/signup?${query.toString()}` });
    }
  }
}

