import { afterAll, beforeAll } from 'vitest';
import { roles, type Role } from '@parley/shared';
import type { Queryable } from '../platform/db/client.js';
import { startApiHarness, type ApiHarness } from './apiHarness.js';
import type { TestDatabaseKind } from './databases.js';
import { createAccount, createUser, roleFixtures } from './factories.js';

export type RoleFixtures = Awaited<ReturnType<typeof roleFixtures>>;

export interface RouteHarnessOptions {
  /** Environment for the app's config (e.g. PUBLIC_URL). */
  env?: Record<string, string>;
  /** Runs after the database opens and before the role fixtures are made (e.g. seeding plans). */
  seed?: (q: Queryable) => Promise<void>;
}

export interface RouteHarness {
  /** The harness; usable from inside tests and hooks once the suite's beforeAll has run. */
  h: ApiHarness;
  /** A shared account with one user per role. */
  fixtures: RoleFixtures;
  /** A bearer token per role for the users of `fixtures`. */
  tokens: Record<Role, string>;
  /** A fresh account with one administrator and a token for them. */
  ownAccount: (overrides?: Parameters<typeof createAccount>[2]) => Promise<{
    admin: Awaited<ReturnType<typeof createUser>>;
    account: Awaited<ReturnType<typeof createAccount>>;
    token: string;
  }>;
}

/**
 * Starts the API for the enclosing describe block (beforeAll/afterAll) with role fixtures. The fields
 * are stable views that can be destructured at once; they read the harness started in beforeAll.
 */
export function useRouteHarness(kind: TestDatabaseKind, options: RouteHarnessOptions = {}): RouteHarness {
  let harness: ApiHarness | undefined;
  let shared: RoleFixtures | undefined;
  const started = (): ApiHarness => {
    if (!harness) throw new Error('the route harness is used before its beforeAll has run');
    return harness;
  };
  const made = (): RoleFixtures => {
    if (!shared) throw new Error('the role fixtures are used before the beforeAll has made them');
    return shared;
  };
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    harness = await startApiHarness(kind, options.env);
    await options.seed?.(harness.database.db);
    shared = await roleFixtures(harness.database.db);
    for (const role of roles) tokens[role] = harness.tokenFor(shared.users[role]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const h: ApiHarness = {
    get app() {
      return started().app;
    },
    get database() {
      return started().database;
    },
    get authenticator() {
      return started().authenticator;
    },
    get carriers() {
      return started().carriers;
    },
    tokenFor: (userId) => started().tokenFor(userId),
    call: (method, url, token, body) => started().call(method, url, token, body),
    close: () => started().close(),
  };
  const fixtures: RoleFixtures = {
    get accountId() {
      return made().accountId;
    },
    get users() {
      return made().users;
    },
  };

  return {
    h,
    fixtures,
    tokens,
    ownAccount: async (overrides = {}) => {
      const admin = await createUser(h.database.db);
      const account = await createAccount(h.database.db, { [admin.id]: 'Administrator' }, overrides);
      return { admin, account, token: h.tokenFor(admin.id) };
    },
  };
}
