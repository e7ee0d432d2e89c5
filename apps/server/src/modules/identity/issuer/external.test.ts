import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/databases.js';
import type { TestServer } from '../../../test/server.js';
import { connectClient } from '../../../test/socket.js';
import { createUser, findUserByEmail } from '../users.js';
import { registerApiClient } from './apiClients.js';
import { discover, signInWithPkce, startIssuerServer } from '../../../test/identity.js';

/** An API client's token names its secret's version (apiClientSecrets.ts). */
const anySecretVersion: unknown = expect.stringMatching(/^[0-9a-f]{16}$/);

// One Parley (its own database) stands in for an external issuer such as Keycloak; the other is
// configured with OIDC_ISSUER pointing at it.
describe.each(testDatabaseKinds)('external issuer (%s)', (kind) => {
  let external: TestServer;
  let server: TestServer;
  const apiClient = { clientId: `api-${randomUUID()}`, secret: randomUUID() + randomUUID(), accountId: randomUUID() };

  beforeAll(async () => {
    external = await startIssuerServer(kind);
    server = await startIssuerServer(kind, {
      OIDC_ISSUER: external.config.identity.issuer,
      OIDC_AUDIENCE: external.config.identity.audience,
    });
    await registerApiClient(external.database.db, apiClient);
  });
  afterAll(async () => {
    await server.stop();
    await external.stop();
  });

  it('does not mount its own issuer and points the web app at the external one', async () => {
    const own = await fetch(`${server.baseUrl}/oidc/.well-known/openid-configuration`);
    expect(own.status).toBe(404);
    const config = (await (await fetch(`${server.baseUrl}/v1/config`)).json()) as { auth: { issuer: string } };
    expect(config.auth.issuer).toBe(external.config.identity.issuer);
  });

  it("verifies the external issuer's tokens through its JWKS", async () => {
    const config = await discover(external.config.identity.issuer, apiClient.clientId, oidc.ClientSecretBasic(apiClient.secret));
    const { access_token } = await oidc.clientCredentialsGrant(config);
    expect(await server.authenticator.authenticate(access_token)).toEqual({
      userId: apiClient.clientId,
      clientId: apiClient.clientId,
      accountIds: [apiClient.accountId],
      secretVersion: anySecretVersion,
    });
  });

  it('accepts a signed-in user on websockets and refuses tokens of another issuer', async () => {
    await createUser(external.database.db, { email: 'carol@example.com', password: 'a long enough password', emailVerified: true });
    const web = await discover(external.config.identity.issuer, 'parley-web');
    const { tokens } = await signInWithPkce(web, `${external.config.publicUrl}/callback`, {
      email: 'carol@example.com',
      password: 'a long enough password',
    });
    const client = await connectClient(server.baseUrl, { token: tokens.access_token });
    // The external subject stands for the Parley user of this server's database with that address.
    const local = await findUserByEmail(server.database.db, 'carol@example.com');
    expect(client.rooms).toContain(`user:${local?.id ?? 'none'}`);
    client.socket.close();

    // The server's own keys are not the external issuer's: a token it would have signed is refused.
    const own = await startIssuerServer(kind);
    try {
      const ownClient = { ...apiClient, clientId: `api-${randomUUID()}` };
      await registerApiClient(own.database.db, ownClient);
      const ownConfig = await discover(own.config.identity.issuer, ownClient.clientId, oidc.ClientSecretBasic(ownClient.secret));
      const { access_token } = await oidc.clientCredentialsGrant(ownConfig);
      expect(await server.authenticator.authenticate(access_token)).toBeNull();
    } finally {
      await own.stop();
    }
  });
});
