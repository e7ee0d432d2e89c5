import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { contactGroups, groupUsers } from '../../platform/db/schema/index.js';

/*
 * Who sees which conversation (and its messages, counts and events), in one place:
 * - a conversation without a group: every member of the account;
 * - a conversation with a group: the group's users, and the account's administrators;
 * - API clients see everything (they act as the account's administrator).
 * Roles below Administrator are not widened by their capabilities: a Campaign Manager outside a group does
 * not see the group's conversations either.
 */

/** The one reading the records: from the guard's principal and membership. */
export interface ConversationViewer {
  role: Role;
  /** A user id, or the client id of an API client. */
  userId: string;
  /** Set for an API client. */
  clientId?: string | undefined;
}

/** The role that sees every group's conversations. */
const EVERY_GROUP_ROLE: Role = 'Administrator';

// Aliased and qualified: these go into queries of any table. The user id is a value or a column.
const groupsOf = (userId: string | SQL): SQL => sql`select vgu.group_id from group_users vgu where vgu.user_id = ${userId}`;

/** "A user (a value or a column) who is no administrator sees a conversation whose group is `groupId`". */
const inGroupCondition = (userId: string | SQL, groupId: SQL | SQL.Aliased | { getSQL(): SQL }): SQL =>
  sql`(${groupId} is null or ${groupId} in (${groupsOf(userId)}))`;

/** True when the viewer sees every conversation of the account whatever its group. */
export const seesEveryGroup = (viewer: ConversationViewer): boolean => viewer.clientId !== undefined || viewer.role === EVERY_GROUP_ROLE;

/**
 * The SQL condition "the viewer sees a conversation whose group is `groupId`" (a column or expression of the
 * query it goes into). `true` for those who see everything, so the planner drops it.
 */
export function visibleGroupCondition(viewer: ConversationViewer, groupId: SQL | SQL.Aliased | { getSQL(): SQL }): SQL {
  if (seesEveryGroup(viewer)) return sql`true`;
  return inGroupCondition(viewer.userId, groupId);
}

/**
 * The same rule with the viewer in the query: "the account member whose role and user id are these columns
 * (e.g. of account_members) sees a conversation whose group is `groupId`", for choosing among many members at
 * once (who is notified of a conversation).
 */
export function memberSeesGroupCondition(member: { role: SQL; userId: SQL }, groupId: SQL): SQL {
  return sql`(${member.role} = ${EVERY_GROUP_ROLE} or ${inGroupCondition(member.userId, groupId)})`;
}

/**
 * The condition "the viewer sees the conversation of this message" for a query on messages: the message's
 * conversation id (a column or expression) must name a conversation the viewer sees. A primary-key lookup
 * per row, and nothing at all for those who see everything.
 */
export function visibleMessageCondition(viewer: ConversationViewer, conversationId: SQL | { getSQL(): SQL }): SQL {
  if (seesEveryGroup(viewer)) return sql`true`;
  return sql`not exists (select 1 from conversations vc where vc.id = ${conversationId} and vc.group_id is not null
    and vc.group_id not in (${groupsOf(viewer.userId)}))`;
}

/** The viewer of a request, from what the guard set (principalOf, membershipOf). */
export const conversationViewer = (principal: { userId: string; clientId?: string | undefined }, membership: { role: Role }): ConversationViewer => ({
  role: membership.role,
  userId: principal.userId,
  clientId: principal.clientId,
});

/**
 * The whole account's view, for what the server itself writes about a conversation (event data): who may
 * receive an event is decided by its group when it is delivered, not by who caused it.
 */
export const WHOLE_ACCOUNT: ConversationViewer = { role: 'Administrator', userId: 'parley' };

/** The groups of the account the user is in: their conversations are the user's too (realtime rooms). */
export async function viewerGroupIds(q: Queryable, accountId: string, userId: string): Promise<string[]> {
  const rows = await q
    .select({ id: groupUsers.groupId })
    .from(groupUsers)
    .innerJoin(contactGroups, eq(contactGroups.id, groupUsers.groupId))
    .where(and(eq(contactGroups.accountId, accountId), eq(groupUsers.userId, userId)));
  return rows.map((r) => r.id);
}
