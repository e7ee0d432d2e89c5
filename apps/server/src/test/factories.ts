import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Role } from '@parley/shared';
import type { Queryable } from '../platform/db/client.js';
import { forgetAccountAccess } from '../modules/identity/index.js';
import { accountMembers, accounts, plans, users } from '../platform/db/schema/index.js';

let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${(counter++).toString(36)}${randomUUID().slice(0, 6)}`;

/** A user of its own (unique e-mail); no password unless the test signs in through the issuer. */
export async function createUser(
  q: Queryable,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<typeof users.$inferSelect> {
  const id = randomUUID();
  const [row] = await q
    .insert(users)
    .values({
      id,
      email: `user-${unique()}@example.test`,
      firstName: 'Test',
      lastName: 'User',
      emailVerifiedAt: new Date(),
      tacAcceptedAt: new Date(),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('user insert returned nothing');
  return row;
}

/** The plan tests put accounts on when they do not care which (created if missing). */
export async function ensureTestPlan(q: Queryable, id = 'test-plan', isTrial = false): Promise<string> {
  await q
    .insert(plans)
    .values({
      id,
      name: isTrial ? 'Test Trial' : 'Test Plan',
      price: isTrial ? '0' : '49',
      isTrial,
      pricing: { DEFAULT: { sms: { outbound: '0.0100' } } },
    })
    .onConflictDoNothing();
  return id;
}

/** A fresh account with the given members (user id → role). */
export async function createAccount(
  q: Queryable,
  members: Record<string, Role> = {},
  overrides: Partial<typeof accounts.$inferInsert> = {},
): Promise<typeof accounts.$inferSelect> {
  const planId = overrides.planId ?? (await ensureTestPlan(q));
  const [row] = await q
    .insert(accounts)
    .values({
      id: randomUUID(),
      name: `Account ${unique()}`,
      planId,
      support: { address: '1 Main St', phone: '+14155552671', email: 'support@example.test' },
      questionnaire: { messagingVolume: '1-1,000', messagingType: ['one to one'], desiredIntegrations: [] },
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('account insert returned nothing');
  const entries = Object.entries(members);
  if (entries.length > 0) {
    await q.insert(accountMembers).values(entries.map(([userId, role]) => ({ accountId: row.id, userId, role })));
  }
  return row;
}

/** A user with a role in a fresh account, for each of the four roles. */
export async function roleFixtures(q: Queryable): Promise<{
  accountId: string;
  users: Record<Role, string>;
}> {
  const admin = await createUser(q);
  const manager = await createUser(q);
  const sender = await createUser(q);
  const readOnly = await createUser(q);
  const account = await createAccount(q, {
    [admin.id]: 'Administrator',
    [manager.id]: 'CampaignManager',
    [sender.id]: 'Sender',
    [readOnly.id]: 'ReadOnly',
  });
  return {
    accountId: account.id,
    users: { Administrator: admin.id, CampaignManager: manager.id, Sender: sender.id, ReadOnly: readOnly.id },
  };
}

/** Closes an account directly, as the close-account command will. */
export async function closeAccount(q: Queryable, accountId: string): Promise<void> {
  await q.execute(sql`update accounts set status = 'closed', closed_at = now() where id = ${accountId}`);
  forgetAccountAccess(accountId);
}
