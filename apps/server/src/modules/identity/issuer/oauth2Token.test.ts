import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startIssuerServer } from '../../../test/identity.js';
import type { TestServer } from '../../../test/server.js';
import { registerApiClient } from './apiClients.js';
import { basicCredentials } from './oauth2Token.js';

/** An API client's token names its secret's version (apiClientSecrets.ts). */
const anySecretVersion: unknown = expect.stringMatching(/^[0-9a-f]{16}$/);

describe.each(testDatabaseKinds)('the hosted product API token endpoint, /oauth2/token (%s)', (kind) => {
  let server: TestServer;
  let tokenUrl: string;
  const apiClient = { clientId: randomUUID(), secret: `s3cret+/=${randomUUID()}${randomUUID()}`, accountId: randomUUID() };

  beforeAll(async () => {
    server = await startIssuerServer(kind);
    tokenUrl = `${server.config.publicUrl}/oauth2/token`;
    await registerApiClient(server.database.db, apiClient);
  });
  afterAll(async () => {
    await server.stop();
  });

  const post = (body: string, headers: Record<string, string>) => fetch(tokenUrl, { method: 'POST', headers, body });
  const json = { 'content-type': 'application/json' };

  it('gives a token for a JSON body with the client id and secret in it, as its clients send it', async () => {
    const answer = await post(
      JSON.stringify({ grant_type: 'client_credentials', client_id: apiClient.clientId, client_secret: apiClient.secret }),
      json,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    const body = (await answer.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBeGreaterThan(0);
    expect(await server.authenticator.authenticate(body.access_token)).toEqual({
      userId: apiClient.clientId,
      clientId: apiClient.clientId,
      accountIds: [apiClient.accountId],
      secretVersion: anySecretVersion,
    });
  });

  it('gives a token for a form body with Basic authentication', async () => {
    const answer = await post('grant_type=client_credentials', {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicCredentials(apiClient.clientId, apiClient.secret),
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { access_token: string };
    expect(await server.authenticator.authenticate(body.access_token)).toMatchObject({ clientId: apiClient.clientId });
  });

  it('refuses a wrong secret, an unknown client and missing credentials as OAuth 2 does, with no token', async () => {
    for (const credentials of [
      { client_id: apiClient.clientId, client_secret: `${apiClient.secret}x` },
      { client_id: randomUUID(), client_secret: apiClient.secret },
      {},
    ]) {
      const answer = await post(JSON.stringify({ grant_type: 'client_credentials', ...credentials }), json);
      expect(answer.status).toBe(401);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body.error).toBe('invalid_client');
      expect(body).not.toHaveProperty('access_token');
    }
  });

  it('refuses other grants and bodies that are not a token request', async () => {
    const password = await post(JSON.stringify({ grant_type: 'password', username: 'a', password: 'b' }), json);
    expect(password.status).toBe(400);
    expect(await password.json()).toMatchObject({ error: 'unsupported_grant_type' });
    for (const body of ['', '[1,2]', JSON.stringify({ client_id: apiClient.clientId, client_secret: apiClient.secret })]) {
      const answer = await post(body, json);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('slows down an address after 20 refused requests, and then refuses even good credentials for a while', async () => {
    const address = { 'content-type': 'application/json' };
    const good = JSON.stringify({ grant_type: 'client_credentials', client_id: apiClient.clientId, client_secret: apiClient.secret });
    const bad = JSON.stringify({ grant_type: 'client_credentials', client_id: apiClient.clientId, client_secret: 'wrong' });
    // The tests above refused 3 already; the same process counts them.
    let refused = 0;
    for (;;) {
      const answer = await post(bad, address);
      if (answer.status === 429) break;
      expect(answer.status).toBe(401);
      refused += 1;
      expect(refused).toBeLessThanOrEqual(20);
    }
    const blocked = await post(good, address);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ error: 'slow_down' });
  });
});
