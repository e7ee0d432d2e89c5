import { and, eq, inArray, sql } from 'drizzle-orm';
import type { NotificationChannelKind } from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { isUuid } from '../../../platform/db/ids.js';
import { accountMembers, contactGroups, notificationChannels, users, type NotificationChannelRow } from '../../../platform/db/schema/index.js';

/** The user's channels in the account, by kind. */
export async function channelsOfUser(q: Queryable, accountId: string, userId: string): Promise<Map<NotificationChannelKind, NotificationChannelRow>> {
  const rows = await q
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.accountId, accountId), eq(notificationChannels.userId, userId)));
  return new Map(rows.map((row) => [row.channel, row]));
}

/** The user's own channel named by its kind or its id; null for anything else (another user's, another account's). */
export async function findOwnChannel(q: Queryable, accountId: string, userId: string, kindOrId: string): Promise<NotificationChannelRow | null> {
  const byKind = kindOrId === 'email' || kindOrId === 'sms' || kindOrId === 'slack';
  if (!byKind && !isUuid(kindOrId)) return null;
  const [row] = await q
    .select()
    .from(notificationChannels)
    .where(
      and(
        eq(notificationChannels.accountId, accountId),
        eq(notificationChannels.userId, userId),
        byKind ? eq(notificationChannels.channel, kindOrId) : eq(notificationChannels.id, kindOrId),
      ),
    )
    .limit(1);
  return row ?? null;
}

export interface ConnectedUser {
  channel: NotificationChannelKind;
  id: string;
  name: string;
  email: string;
}

/** Who in the account connected which channel (members only: a removed member's channel is not theirs any more). */
export async function connectedUsers(q: Queryable, accountId: string, onlyUserId: string | null): Promise<ConnectedUser[]> {
  const rows = await q
    .select({ channel: notificationChannels.channel, id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(notificationChannels)
    .innerJoin(users, eq(users.id, notificationChannels.userId))
    .innerJoin(accountMembers, and(eq(accountMembers.accountId, notificationChannels.accountId), eq(accountMembers.userId, notificationChannels.userId)))
    .where(and(eq(notificationChannels.accountId, accountId), onlyUserId === null ? sql`true` : eq(notificationChannels.userId, onlyUserId)))
    .orderBy(users.email);
  return rows.map((r) => ({ channel: r.channel, id: r.id, name: `${r.firstName} ${r.lastName}`.trim() || r.email, email: r.email }));
}

/** The ids among `ids` that are not groups of the account. */
export async function foreignGroupIds(q: Queryable, accountId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const own = await q
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(and(eq(contactGroups.accountId, accountId), inArray(contactGroups.id, [...ids])));
  const known = new Set(own.map((g) => g.id));
  return ids.filter((id) => !known.has(id));
}

/** The user's address and mobile: where their e-mail and SMS channels go. */
export async function userContact(q: Queryable, userId: string): Promise<{ email: string; mobile: string | null; country: string | null } | null> {
  const [row] = await q.select({ email: users.email, mobile: users.mobileNumber, country: users.mobileCountry }).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}
