import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../../platform/db/client.js';
import { identityKeys } from '../../../platform/db/schema/index.js';
import { startServer } from '../../../app/server.js';
import { createScratchPostgres, openTestDatabase, testDatabaseKinds, uniqueJobsSchema, type TestDatabaseKind } from '../../../test/databases.js';
import { testConfig } from '../../../test/config.js';
import { silentLogger } from '../../../test/logger.js';
import { registerApiClient } from './apiClients.js';
import { loadIssuerKeys } from './keys.js';
import { discover, freePort } from '../../../test/identity.js';

/** Opens the same database again and again, as restarts of one deployment would. */
async function reopenableDatabase(kind: TestDatabaseKind): Promise<{ open: () => Promise<Database>; remove: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-keys-'));
    return { open: () => openPglite(dir), remove: () => fs.promises.rm(dir, { recursive: true, force: true }) };
  }
  const scratch = await createScratchPostgres();
  return { open: () => Promise.resolve(openPostgres(scratch.url, 5)), remove: scratch.drop };
}

describe.each(testDatabaseKinds)('issuer keys (%s)', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('creates one key set even when several processes start together', async () => {
    const database = await openTestDatabase(kind);
    cleanups.push(() => database.close());
    const secrets = testConfig().secrets;
    const sets = await Promise.all([loadIssuerKeys(database, secrets), loadIssuerKeys(database, secrets), loadIssuerKeys(database, secrets)]);
    const kids = sets.map((s) => s.jwks[0]?.kid);
    expect(new Set(kids).size).toBe(1);
    expect(sets[0].jwks[0]).toHaveProperty('d');
  });

  it('keeps the private keys encrypted with the secrets key, and encrypts keys stored before', async () => {
    const database = await openTestDatabase(kind);
    cleanups.push(() => database.close());
    const key = randomBytes(32);
    const withKey = { key, keyFile: null };
    const rawRow = async () => (await database.db.select().from(identityKeys).where(eq(identityKeys.id, 'default')))[0];

    // Stored before any key was configured (PostgreSQL without SECRETS_KEY): as they are.
    const plain = await loadIssuerKeys(database, { key: null, keyFile: null });
    expect(Array.isArray((await rawRow())?.jwks)).toBe(true);

    // With SECRETS_KEY the next start encrypts them, and they stay the same keys.
    const sealed = await loadIssuerKeys(database, withKey);
    expect(sealed).toEqual(plain);
    const row = await rawRow();
    expect(row?.jwks).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row?.cookieKeys).toMatch(/^v1\.[0-9a-f]{8}\./);
    const text = JSON.stringify(row);
    expect(text).not.toContain(String(plain.jwks[0]?.d));
    expect(text).not.toContain(plain.cookieKeys[0]);
    expect(await loadIssuerKeys(database, withKey)).toEqual(plain);

    // Another key, or none, cannot read them, and says why.
    await expect(loadIssuerKeys(database, { key: randomBytes(32), keyFile: null })).rejects.toThrow(/another key/);
    await expect(loadIssuerKeys(database, { key: null, keyFile: null })).rejects.toThrow(/set SECRETS_KEY/);
  });

  it('keeps the keys across a restart, so tokens issued before it still verify', async () => {
    const store = await reopenableDatabase(kind);
    cleanups.push(store.remove);
    const port = await freePort();
    const env = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SERVICES: 'web' };
    const start = async () =>
      startServer(testConfig(env), silentLogger(), { database: await store.open(), webDist: null, jobsSchema: uniqueJobsSchema() });

    const first = await start();
    const apiClient = { clientId: `api-${randomUUID()}`, secret: randomUUID() + randomUUID(), accountId: randomUUID() };
    let token: string;
    try {
      await registerApiClient(first.database.db, apiClient);
      const config = await discover(first.config.identity.issuer, apiClient.clientId, oidc.ClientSecretBasic(apiClient.secret));
      token = (await oidc.clientCredentialsGrant(config)).access_token;
    } finally {
      await first.stop();
    }

    const second = await start();
    try {
      expect(await second.authenticator.authenticate(token)).toMatchObject({ accountIds: [apiClient.accountId] });
    } finally {
      await second.stop();
    }
  });
});
