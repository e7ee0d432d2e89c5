import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { findUserByEmail, findUserById } from './users.js';

/*
 * The deployment's operators: people who run the deployment itself (its feature board), whatever their
 * roles in accounts. Only the CLI sets and unsets the flag (docs/featureRequests.md, "Operators").
 */

export interface OperatorEntry {
  id: string;
  email: string;
  name: string;
}

/** How the deployment's own pages name a person: their name, else no name rather than their address. */
export function personName(user: { firstName: string; lastName: string }): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name === '' ? 'Anonymous' : name;
}

export async function isOperator(q: Queryable, userId: string): Promise<boolean> {
  return (await findUserById(q, userId))?.operator === true;
}

/** Sets or unsets the flag of the user with this e-mail; null when there is no such user. */
export async function setOperator(q: Queryable, email: string, operator: boolean): Promise<OperatorEntry | null> {
  const user = await findUserByEmail(q, email);
  if (user === null) return null;
  await q.update(users).set({ operator, updatedAt: new Date() }).where(eq(users.id, user.id));
  return { id: user.id, email: user.email, name: personName(user) };
}

export async function listOperators(q: Queryable): Promise<OperatorEntry[]> {
  const rows = await q.select().from(users).where(eq(users.operator, true)).orderBy(asc(users.email));
  return rows.map((u) => ({ id: u.id, email: u.email, name: personName(u) }));
}
