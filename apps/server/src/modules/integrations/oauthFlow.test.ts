import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Integration, IntegrationSync } from '@parley/shared';
import { accountMembers, integrations } from '../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../test/databases.js';
import type { Connector } from './connector.js';
import { openCredentials } from './integrationStore.js';
import { OAUTH_STATE_INVALID_MESSAGE } from './oauthCommands.js';
import { standInConnector } from './registry.js';
import { startIntegrationHarness, type IntegrationHarness } from './test/integrationHarness.js';

/*
 * The framework's OAuth path, with a connector of its own for a kind that has none yet (Cradle): what it
 * records is what the framework asked of it. The real OAuth connectors test their provider talk against
 * their own peers.
 */

const calls: string[] = [];
const soon = (): string => new Date(Date.now() + 30_000).toISOString();
const later = (): string => new Date(Date.now() + 3_600_000).toISOString();

const oauthConnector: Connector = {
  kind: 'cradle',
  auth: {
    type: 'oauth',
    configured: () => true,
    authorizeUrl: (_config, input) =>
      `https://auth.cradle.test/authorize?${new URLSearchParams({ state: input.state, code_challenge: input.codeChallenge, code_challenge_method: 'S256', redirect_uri: input.redirectUri }).toString()}`,
    exchangeCode: (_session, input) => {
      calls.push(`exchange ${input.code} ${input.codeVerifier} ${input.redirectUri}`);
      // Expires within the refresh margin: the next session refreshes it first.
      return Promise.resolve({ accessToken: 'access-1', refreshToken: 'refresh-1', expiresAt: soon(), connection: { portal: 'Cradle 42' } });
    },
    refresh: (session) => {
      calls.push(`refresh ${session.credentials.refreshToken ?? ''}`);
      return Promise.resolve({ accessToken: 'access-2', expiresAt: later() });
    },
  },
  properties: z.object({}).strict(),
  defaultProperties: {},
  operatorHosts: () => [],
  sync: {
    contacts: (session, cursor) => {
      calls.push(`contacts ${session.credentials.accessToken ?? ''} ${cursor ?? 'start'}`);
      return Promise.resolve({ items: [], next: null, total: 0 });
    },
  },
  revoke: (session) => {
    calls.push(`revoke ${session.credentials.accessToken ?? ''}`);
    return Promise.resolve();
  },
};

describe.each(testDatabaseKinds)('OAuth connections (%s)', (kind) => {
  let h: IntegrationHarness;
  let remove: () => void;
  beforeAll(async () => {
    h = await startIntegrationHarness(kind);
    remove = standInConnector(oauthConnector);
  });
  afterAll(async () => {
    remove();
    await h.close();
  });

  const page = 'http://parley.test/integrations/cradle';
  const refused = `${page}?error=${encodeURIComponent(OAUTH_STATE_INVALID_MESSAGE)}`;
  const callback = (query: Record<string, string>) => h.app.inject({ method: 'GET', url: `/v1/integrations/cradle/oauth/callback?${new URLSearchParams(query).toString()}` });

  async function start(accountId: string, token: string): Promise<URL> {
    const res = await h.call('GET', `/v1/accounts/${accountId}/integrations/cradle/oauth/start`, token);
    expect(res.statusCode, res.body).toBe(200);
    return new URL(res.json<{ data: { url: string } }>().data.url);
  }

  it('connects with a state used once and PKCE, refreshes the token before it expires, revokes on disconnect', async () => {
    calls.length = 0;
    const { accountId, tokens } = await h.account();
    const authorize = await start(accountId, tokens.Administrator);
    const state = authorize.searchParams.get('state') ?? '';
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://parley.test/v1/integrations/cradle/oauth/callback');

    expect((await callback({ code: 'c', state: `${state}tampered` })).headers.location).toBe(refused);
    expect((await callback({ code: 'c' })).headers.location).toBe(refused);
    expect(calls).toEqual([]);

    const back = await callback({ code: 'code-1', state });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(page);
    const [, code, verifier] = (calls[0] ?? '').split(' ');
    expect(code).toBe('code-1');
    expect(crypto.createHash('sha256').update(verifier ?? '').digest('base64url')).toBe(authorize.searchParams.get('code_challenge'));
    const read = await h.call('GET', `/v1/accounts/${accountId}/integrations/cradle`, tokens.ReadOnly);
    expect(read.json<{ data: Integration }>().data).toMatchObject({ status: 'connected', auth: 'oauth', connection: { portal: 'Cradle 42' } });
    expect(read.body).not.toContain('access-1');
    // The same redirect again: the state is spent.
    expect((await callback({ code: 'code-1', state })).headers.location).toBe(refused);

    const sync = await h.call('POST', `/v1/accounts/${accountId}/integrations/cradle/synchronize`, tokens.Administrator);
    await h.run(h.syncJob, { syncId: sync.json<{ data: IntegrationSync }>().data.id });
    expect(calls.slice(1)).toEqual(['refresh refresh-1', 'contacts access-2 start']);
    const [row] = await h.database.db.select().from(integrations).where(and(eq(integrations.accountId, accountId), eq(integrations.kind, 'cradle')));
    if (row === undefined) throw new Error('no integration row');
    expect(await openCredentials(h.deps, row)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-1' });

    expect((await h.call('DELETE', `/v1/accounts/${accountId}/integrations/cradle/disconnect`, tokens.Administrator)).statusCode).toBe(200);
    expect(calls.at(-1)).toBe('revoke access-2');
  });

  it('refuses a state of another kind, and one whose user is no longer an administrator', async () => {
    const { accountId, users, tokens } = await h.account();
    const first = (await start(accountId, tokens.Administrator)).searchParams.get('state') ?? '';
    const other = await h.app.inject({ method: 'GET', url: `/v1/integrations/hubspot/oauth/callback?code=c&state=${first}` });
    expect(other.headers.location).toMatch(/^http:\/\/parley\.test\/integrations\/hubspot\?error=/);
    const second = (await start(accountId, tokens.Administrator)).searchParams.get('state') ?? '';
    await h.database.db.update(accountMembers).set({ role: 'ReadOnly' }).where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, users.Administrator)));
    expect((await callback({ code: 'c', state: second })).headers.location).toBe(refused);
    expect(await h.database.db.select().from(integrations).where(eq(integrations.accountId, accountId))).toEqual([]);
  });
});
