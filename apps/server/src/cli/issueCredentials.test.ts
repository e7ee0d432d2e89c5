import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as oidc from 'openid-client';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { createScratchPostgres, testDatabaseKinds, type TestDatabaseKind } from '../test/databases.js';
import { createAccount, createUser } from '../test/factories.js';
import { discover, freePort } from '../test/identity.js';
import { runCli, spawnParley, type ParleyProcess } from '../test/processes.js';

const cli = runCli;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Where the CLI and then the server find the database: a data directory, or a scratch PostgreSQL database. */
async function storage(kind: TestDatabaseKind): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (kind === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
    cleanups.push(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      return Promise.resolve();
    });
    return { env: { DATA_DIR: dataDir }, open: () => openPglite(dataDir) };
  }
  const scratch = await createScratchPostgres();
  cleanups.push(scratch.drop);
  return { env: { DATABASE_URL: scratch.url }, open: () => Promise.resolve(openPostgres(scratch.url, 2)) };
}

describe.each(testDatabaseKinds)('parley issue-credentials (%s)', (kind) => {
  it('issues credentials that get a token for their account only', async () => {
    const { env, open } = await storage(kind);
    const database = await open();
    let accountId: string;
    let otherId: string;
    try {
      await migrateDatabase(database);
      accountId = (await createAccount(database.db, { [(await createUser(database.db)).id]: 'Administrator' })).id;
      otherId = (await createAccount(database.db)).id;
    } finally {
      await database.close();
    }

    const missing = await cli(['issue-credentials', '--json'], env);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const renewNothing = await cli(['issue-credentials', '--account', accountId, '--renew', '--json'], env);
    expect(JSON.parse(renewNothing.stdout)).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const issued = await cli(['issue-credentials', '--account', accountId, '--json'], env);
    expect(issued.code).toBe(0);
    const first = JSON.parse(issued.stdout) as { ok: boolean; accountId: string; clientId: string; secret: string };
    expect(first).toEqual({ ok: true, accountId, clientId: expect.stringMatching(/^pk_/) as string, secret: expect.any(String) as string });
    expect(first.secret.length).toBeGreaterThanOrEqual(40);

    const twice = await cli(['issue-credentials', '--account', accountId, '--json'], env);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const renewed = await cli(['issue-credentials', '--account', accountId, '--renew'], env);
    expect(renewed.code).toBe(0);
    const secret = /Secret:\s+(\S+)/.exec(renewed.stdout)?.[1] ?? '';
    expect(secret).not.toBe(first.secret);

    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${String(port)}`;
    const server: ParleyProcess = spawnParley({ ...env, PORT: String(port), PUBLIC_URL: publicUrl, SERVICES: 'web' });
    cleanups.push(() => server.stop().then(() => undefined));
    await server.ready();

    const grant = async (clientSecret: string) =>
      oidc.clientCredentialsGrant(await discover(`${publicUrl}/oidc`, first.clientId, oidc.ClientSecretBasic(clientSecret)));
    await expect(grant(first.secret)).rejects.toMatchObject({ status: 401 });
    const { access_token } = await grant(secret);
    const get = (acc: string) =>
      fetch(`${publicUrl}/v1/accounts/${acc}/users`, { headers: { authorization: `Bearer ${access_token}` } });
    const own = await get(accountId);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { pagination: { totalCount: number } }).pagination.totalCount).toBe(1);
    expect((await get(otherId)).status).toBe(404);
  });
});
