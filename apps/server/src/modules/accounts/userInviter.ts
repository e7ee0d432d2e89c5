import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  INVITATION_NOT_SENT_MESSAGE,
  INVITATION_RESEND_INTERVAL_SECONDS,
  INVITATION_RESENT_RECENTLY_MESSAGE,
  roleLabels,
  USER_ALREADY_INVITED_MESSAGE,
  USER_ALREADY_MEMBER_MESSAGE,
  type CreateAccountUser,
} from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { accountMembers, invitations } from '../../platform/db/schema/index.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import { findUserByEmail, findUserById } from '../identity/index.js';
import { addedToAccountMail, invitationMail } from '../../platform/mail/templates/invitation.js';
import { lockAccount } from '../../platform/db/accountLock.js';
import { findAccountUser, findMember, findOpenInvitation, type AccountUserRecord } from './accountUsers.js';

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
  // The membership or invitation stands either way; an administrator can send an invitation again.
  await ctx.mailer.send({ to: record.email, ...noticeMail(ctx.config.publicUrl, record, notice) }).catch((err: unknown) => {
    ctx.log.warn({ err, accountId }, 'invitation email not sent');
  });
  return record;
}

/**
 * Allows one resend per invitation per interval, counted in this process's memory like the other rate
 * limits (docs/identity.md): N web processes allow up to N resends a minute, still far from a flood.
 */
export class ResendGate {
  private readonly sentAt = new Map<string, number>();

  constructor(
    private readonly intervalMs: number = INVITATION_RESEND_INTERVAL_SECONDS * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Claims the invitation's slot; false when it was sent within the interval. */
  take(invitationId: string): boolean {
    const now = this.now();
    const last = this.sentAt.get(invitationId);
    if (last !== undefined && now - last < this.intervalMs) return false;
    if (this.sentAt.size > 10_000) this.prune(now);
    this.sentAt.set(invitationId, now);
    return true;
  }

  /** Gives the slot back (the mail did not go out), so the administrator may try again at once. */
  release(invitationId: string): void {
    this.sentAt.delete(invitationId);
  }

  private prune(now: number): void {
    for (const [id, at] of this.sentAt) if (now - at >= this.intervalMs) this.sentAt.delete(id);
  }
}

export interface ResendInput {
  accountId: string;
  /** The id the users list gives an open invitation. */
  invitationId: string;
  /** The signed-in user who sends it again (named in the mail); null for an API client. */
  senderId: string | null;
}

/**
 * Sends an open invitation's e-mail again, as the first one was (sign-up link, or sign-in for someone
 * whose user exists but is not verified). A member's id or another account's invitation is not found.
 */
export async function resendInvitation(ctx: AppContext, input: ResendInput, gate: ResendGate): Promise<AccountUserRecord> {
  const { accountId, invitationId } = input;
  const found = await ctx.database.db.transaction(async (tx) => {
    const account = await lockAccount(tx, accountId);
    const record = await findAccountUser(tx, accountId, invitationId);
    if (record?.kind !== 'invitation') return null;
    const existing = await findUserByEmail(tx, record.email);
    const notice: Notice = { kind: existing ? 'verifyToJoin' : 'invited', accountName: account.name, inviterName: await inviterName(tx, input.senderId) };
    return { record, notice };
  });
  if (found === null) throw notFound('The invitation');
  if (!gate.take(invitationId)) throw new AppError(429, 'rate_limited', INVITATION_RESENT_RECENTLY_MESSAGE);
  try {
    await ctx.mailer.send({ to: found.record.email, ...noticeMail(ctx.config.publicUrl, found.record, found.notice) });
  } catch (err) {
    gate.release(invitationId);
    ctx.log.warn({ err, accountId }, 'invitation email not sent again');
    throw new AppError(502, 'internal_error', INVITATION_NOT_SENT_MESSAGE);
  }
  return found.record;
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

