import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../../platform/db/client.js';
import { users, type UserRow } from '../../platform/db/schema/index.js';
import { hashPassword } from './passwords.js';

/** Emails compare case-insensitively: they are kept trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewUser {
  email: string;
  /** Omitted for people who will only sign in through a social provider. */
  password?: string;
  firstName?: string;
  lastName?: string;
  emailVerified?: boolean;
}

export async function createUser(q: Queryable, input: NewUser): Promise<UserRow> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const [row] = await q
    .insert(users)
    .values({
      id: uuidv7(),
      email: normalizeEmail(input.email),
      passwordHash,
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
      emailVerifiedAt: input.emailVerified === true ? new Date() : null,
    })
    .returning();
  if (!row) throw new Error('the user was not created');
  return row;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
  return row ?? null;
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await q.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}
