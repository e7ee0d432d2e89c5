import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Integration, SlackWorkspace } from '@parley/shared';
import { notificationChannels } from '../../../platform/db/schema/index.js';
import { startApiHarness, type ApiHarness } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { SlackPeer } from '../channels/test/slackPeer.js';

/*
 * The Slack integration page's API against the local Slack: the workspace installed through "Add to Slack"
 * shows as connected; Disconnect revokes the bot token at Slack and removes the account's Slack channels.
 */

const key = crypto.randomBytes(32).toString('base64');

describe.each(testDatabaseKinds)('the Slack integration on %s', (kind) => {
  const peer = new SlackPeer();
  let h: ApiHarness;
  beforeAll(async () => {
    await peer.start();
    h = await startApiHarness(kind, { ...peer.env(), SECRETS_KEY: key, FETCH_ALLOWED_HOSTS: '127.0.0.1', PUBLIC_URL: 'http://parley.test' });
  });
  afterAll(async () => {
    await h.close();
    await peer.stop();
  });

  const url = (acc: string, path: string) => `/v1/accounts/${acc}${path}`;

  /** A user of the account goes through "Add to Slack" and Slack's consent. */
  async function addToSlack(accountId: string, token: string): Promise<void> {
    const authorize = await h.call('GET', url(accountId, '/notificationchannels/slack/authorize'), token);
    expect(authorize.statusCode, authorize.body).toBe(200);
    const state = new URL(authorize.json<{ data: { url: string } }>().data.url).searchParams.get('state') ?? '';
    const callback = await h.call('GET', `/v1/notificationchannels/slack/callback?code=${peer.code}&state=${encodeURIComponent(state)}`);
    expect(callback.headers.location).toBe('http://parley.test/notifications/slack?connected=1');
  }

  it('shows the workspace while a channel holds its install, and disconnects it: token revoked, channels removed', async () => {
    const admin = await createUser(h.database.db);
    const manager = await createUser(h.database.db);
    const account = await createAccount(h.database.db, { [admin.id]: 'Administrator', [manager.id]: 'CampaignManager' });
    const adminToken = h.tokenFor(admin.id);
    const managerToken = h.tokenFor(manager.id);
    const status = async (): Promise<Integration['status']> => (await h.call('GET', url(account.id, '/integrations/slack'), managerToken)).json<{ data: Integration }>().data.status;
    const workspaces = async (): Promise<{ configured: boolean; workspaces: SlackWorkspace[] }> =>
      (await h.call('GET', url(account.id, '/integrations/slack/workspaces'), managerToken)).json<{ data: { configured: boolean; workspaces: SlackWorkspace[] } }>().data;

    expect(await status()).toBe('notConnected');
    expect(await workspaces()).toEqual({ configured: true, workspaces: [] });
    await addToSlack(account.id, adminToken);
    await addToSlack(account.id, managerToken);
    expect(await status()).toBe('connected');
    expect((await workspaces()).workspaces).toEqual([{ teamId: peer.team.id, teamName: peer.team.name, channels: 2 }]);

    // Disconnecting is the administrators'; another account's call touches nothing here.
    expect((await h.call('DELETE', url(account.id, '/integrations/slack/workspaces'), managerToken)).statusCode).toBe(403);
    const outsider = await createUser(h.database.db);
    const other = await createAccount(h.database.db, { [outsider.id]: 'Administrator' });
    expect((await h.call('DELETE', url(other.id, '/integrations/slack/workspaces'), h.tokenFor(outsider.id))).statusCode).toBe(204);
    expect(await status()).toBe('connected');
    expect(peer.revoked).toBe(false);
    expect((await h.call('DELETE', url(account.id, '/integrations/slack/workspaces'), h.tokenFor(outsider.id))).statusCode).toBe(404);

    const gone = await h.call('DELETE', url(account.id, '/integrations/slack/workspaces'), adminToken);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(peer.revoked).toBe(true);
    expect(await h.database.db.select().from(notificationChannels).where(eq(notificationChannels.accountId, account.id))).toHaveLength(0);
    expect(await status()).toBe('notConnected');
    // Both channels held the same (revoked) token: the second revoke met invalid_auth and counted as done.
    await addToSlack(account.id, adminToken);
    expect(peer.revoked).toBe(false);
    expect(await status()).toBe('connected');
  });
});
