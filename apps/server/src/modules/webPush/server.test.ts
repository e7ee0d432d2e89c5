import crypto, { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPhoneNumber, type WebPushPayload } from '@parley/shared';
import { receiveInbound } from '../messaging/inbound.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { sendingAccount, uniqueSendingTestNumber } from '../../test/sendingFixtures.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { vapidKeysFor } from './keys.js';
import { browserSubscription, startLocalPushService, verifyVapid, type LocalPushService } from './test/localPushService.js';
import { registerSubscription } from './subscriptions.js';

describe.each(testDatabaseKinds)('web push in the running server on %s', (kind) => {
  let server: TestServer;
  let push: LocalPushService;

  beforeAll(async () => {
    push = await startLocalPushService();
    server = await startTestServer(kind, {
      SERVICES: 'worker',
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
      WEB_PUSH_SUBJECT: 'https://parley.test/contact',
      // The local push service stands in for a browser's, on this machine.
      FETCH_ALLOWED_HOSTS: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await server.stop();
    await push.close();
  });

  it("the worker's outbox pushes an incoming message to the browser, signed with the deployment's key", async () => {
    const vapid = await vapidKeysFor(server.database, server.config.secrets, silentLogger(), { create: true });
    const account = await sendingAccount(server.database.db);
    const browser = browserSubscription(`${push.origin}/push/${randomUUID()}`);
    await registerSubscription(server.database.db, { accountId: account.accountId, userId: account.adminId, endpoint: browser.endpoint, ...browser.keys, userAgent: null });
    const mobile = uniqueSendingTestNumber();
    await receiveInbound(
      server.database, DEPLOYMENT_SIMULATOR,
      { carrierMessageId: `in-${randomUUID()}`, from: mobile, to: account.number, text: 'Hello?', media: [], receivedAt: new Date() },
      silentLogger(),
    );
    const [request] = await push.waitFor(1);
    if (!request) throw new Error('no push');
    const { claims, publicKey } = await verifyVapid(request.headers.authorization, browser.endpoint);
    expect(publicKey).toBe(vapid?.publicKey);
    expect(claims.sub).toBe('https://parley.test/contact');
    expect(JSON.parse(browser.decrypt(request.body))).toEqual({
      title: formatPhoneNumber(mobile, 'US'),
      body: 'Hello?',
      url: expect.stringMatching(/^\/conversations\//) as string,
      tag: expect.any(String) as string,
    } satisfies Record<keyof WebPushPayload, unknown>);
  });
});
