import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../platform/db/migrate.js';
import { afterTest, cliStorage, runCli, runCommand } from '../test/cli.js';
import { testDatabaseKinds } from '../test/databases.js';
import { createAccount, createUser } from '../test/factories.js';
import { discover, freePort } from '../test/identity.js';
import { spawnParley, type ParleyProcess } from '../test/processes.js';

const cli = runCommand;

describe.each(testDatabaseKinds)('parley issue-credentials (%s)', (kind) => {
  it('issues credentials that get a token for their account only', async () => {
    const storage = await cliStorage(kind);
    afterTest(storage.remove);
    const { env, open } = storage;
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

    // The CLI's own process: its exit code and the JSON it prints.
    const issued = await runCli(['issue-credentials', '--account', accountId, '--json'], env);
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
    afterTest(() => server.stop());
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
