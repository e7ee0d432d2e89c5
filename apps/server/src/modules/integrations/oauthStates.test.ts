import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { roleFixtures } from '../../test/factories.js';
import { consumeOAuthState, createOAuthState, OAUTH_STATE_TTL_MS } from './oauthStates.js';
import crypto from 'node:crypto';

describe.each(testDatabaseKinds)('OAuth states (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('gives a state back once, to its kind, with the verifier whose S256 challenge was sent', async () => {
    const { accountId, users } = await roleFixtures(database.db);
    const started = await createOAuthState(database.db, { accountId, userId: users.Administrator, kind: 'hubspot' });
    expect(await consumeOAuthState(database.db, started.state, 'pipedrive')).toBeNull();
    expect(await consumeOAuthState(database.db, `${started.state}x`, 'hubspot')).toBeNull();
    const taken = await consumeOAuthState(database.db, started.state, 'hubspot');
    expect(taken).toMatchObject({ accountId, userId: users.Administrator });
    expect(crypto.createHash('sha256').update(taken?.codeVerifier ?? '').digest('base64url')).toBe(started.codeChallenge);
    // Used: a replayed redirect finds nothing.
    expect(await consumeOAuthState(database.db, started.state, 'hubspot')).toBeNull();
  });

  it('refuses a state after ten minutes', async () => {
    const { accountId, users } = await roleFixtures(database.db);
    const at = new Date('2026-12-02T10:00:00Z');
    const started = await createOAuthState(database.db, { accountId, userId: users.Administrator, kind: 'intercom' }, at);
    expect(await consumeOAuthState(database.db, started.state, 'intercom', new Date(at.getTime() + OAUTH_STATE_TTL_MS + 1))).toBeNull();
  });
});
