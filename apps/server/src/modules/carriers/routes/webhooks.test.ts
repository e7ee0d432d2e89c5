import crypto from 'node:crypto';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CarrierHandlers, InboundMessage, StatusReport } from '../carrier.js';
import type { EngineHandlers, NumberCarrierRef } from '../registry.js';
import { secretContext } from '../connections.js';
import type { Database } from '../../../platform/db/client.js';
import { carrierSettings } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { SecretCipher } from '../../../platform/secrets/cipher.js';
import { testConfig } from '../../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../../test/databases.js';
import { createAccount } from '../../../test/factories.js';
import { carrierWebhookRoutes } from './webhooks.js';

// Behind a reverse proxy that maps https://sms.example.test/parley/ to this server's /.
const PUBLIC_URL = 'https://sms.example.test/parley';
const deploymentSid = 'AC00000000000000000000000000000001';
const deploymentToken = '0123456789abcdef0123456789abcdef';
const accountToken = 'fedcba9876543210fedcba9876543210';
const key = crypto.randomBytes(32);

const statusParams: Record<string, string> = {
  AccountSid: deploymentSid,
  ApiVersion: '2010-04-01',
  From: '+15005550006',
  To: '+14155550123',
  MessageSid: 'SM00000000000000000000000000000042',
  SmsSid: 'SM00000000000000000000000000000042',
  MessageStatus: 'undelivered',
  SmsStatus: 'undelivered',
  ErrorCode: '30003',
  ErrorMessage: 'Unreachable destination handset',
};

const inboundParams: Record<string, string> = {
  AccountSid: deploymentSid,
  ApiVersion: '2010-04-01',
  MessageSid: 'MM00000000000000000000000000000077',
  SmsMessageSid: 'MM00000000000000000000000000000077',
  From: '+14155550123',
  To: '+15005550006',
  Body: 'Here is the photo & the x-ray ✓',
  NumMedia: '2',
  NumSegments: '1',
  MediaUrl0: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM77/Media/ME1',
  MediaContentType0: 'image/jpeg',
  MediaUrl1: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM77/Media/ME2',
  MediaContentType1: 'image/png',
};

interface Recorded extends CarrierHandlers {
  statuses: StatusReport[];
  received: InboundMessage[];
  /** The connection each handed-on report or message was for. */
  sources: NumberCarrierRef[];
}

function recorder(): Recorded {
  const statuses: StatusReport[] = [];
  const received: InboundMessage[] = [];
  return {
    statuses,
    received,
    sources: [],
    status: (report) => {
      statuses.push(report);
      return Promise.resolve();
    },
    statusMany: (reports) => {
      statuses.push(...reports);
      return Promise.resolve();
    },
    inbound: (message) => {
      received.push(message);
      return Promise.resolve();
    },
  };
}

/** The plugin alone, with the validation and error answers of the app. */
async function webhookApp(database: Database, env: Record<string, string>, handlers: EngineHandlers) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof AppError) return reply.code(error.statusCode).send({ error: { code: error.code, message: error.message } });
    return reply.code(500).send({ error: { code: 'internal_error', message: String(error) } });
  });
  await app.register(carrierWebhookRoutes, { prefix: '/v1', ctx: { config: testConfig(env), database }, handlers });
  await app.ready();
  return app;
}

const form = (params: Record<string, string>): string => new URLSearchParams(params).toString();
const sign = (token: string, path: string, params: Record<string, string>): string =>
  twilio.getExpectedTwilioSignature(token, `${PUBLIC_URL}${path}`, params);

describe.each(testDatabaseKinds)('Twilio webhooks on %s', (kind) => {
  let database: Database;
  let handlers: Recorded;
  let app: Awaited<ReturnType<typeof webhookApp>>;
  let twilioSettingsId: string;
  let smppSettingsId: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    handlers = recorder();
    const env = {
      PUBLIC_URL,
      TWILIO_ACCOUNT_SID: deploymentSid,
      TWILIO_AUTH_TOKEN: deploymentToken,
      SECRETS_KEY: key.toString('hex'),
    };
    const through: CarrierHandlers = {
      status: (report) => handlers.status(report),
      statusMany: (reports) => handlers.statusMany(reports),
      inbound: (message) => handlers.inbound(message),
    };
    app = await webhookApp(database, env, {
      ...through,
      forConnection: (ref) => {
        handlers.sources.push(ref);
        return through;
      },
    });
    const account = await createAccount(database.db);
    const cipher = new SecretCipher(key);
    twilioSettingsId = crypto.randomUUID();
    smppSettingsId = crypto.randomUUID();
    await database.db.insert(carrierSettings).values([
      {
        id: twilioSettingsId,
        accountId: account.id,
        carrier: 'twilio',
        name: 'Own Twilio',
        settings: { accountSid: 'AC00000000000000000000000000000009' },
        secret: cipher.encrypt(accountToken, secretContext(twilioSettingsId)),
      },
      {
        id: smppSettingsId,
        accountId: account.id,
        carrier: 'smpp',
        name: 'Own SMSC',
        settings: { host: 'smsc.example.test', port: 2775, systemId: 'acme', tls: false },
        secret: cipher.encrypt(accountToken, secretContext(smppSettingsId)),
      },
    ]);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(() => {
    handlers.statuses.length = 0;
    handlers.received.length = 0;
  });

  const post = (path: string, params: Record<string, string>, signature: string | null, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // As a reverse proxy forwards it: an internal address, not the one Twilio called.
        host: '127.0.0.1:3000',
        ...(signature === null ? {} : { 'x-twilio-signature': signature }),
        ...headers,
      },
      payload: form(params),
    });

  it('hands a signed status callback to the status handler and answers 204', async () => {
    const path = '/v1/carriers/twilio/status';
    const before = Date.now();
    const res = await post(path, statusParams, sign(deploymentToken, path, statusParams));
    expect(res.statusCode, res.body).toBe(204);
    // Twilio's callback carries no time of its own: the status is as of its arrival.
    expect(handlers.statuses[0]?.at.getTime()).toBeGreaterThanOrEqual(before);
    expect(handlers.statuses[0]?.at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(handlers.statuses.map(({ at: _at, ...report }) => report)).toEqual([
      {
        carrierMessageId: 'SM00000000000000000000000000000042',
        status: 'undelivered',
        errorCode: '30003',
        errorText: 'Unreachable destination handset',
      },
    ]);
  });

  it('signs over the query string too', async () => {
    const path = '/v1/carriers/twilio/status?attempt=2';
    const res = await post(path, statusParams, sign(deploymentToken, path, statusParams));
    expect(res.statusCode).toBe(204);
    expect(handlers.statuses).toHaveLength(1);
    const moved = await post('/v1/carriers/twilio/status?attempt=3', statusParams, sign(deploymentToken, path, statusParams));
    expect(moved.statusCode).toBe(401);
    expect(handlers.statuses).toHaveLength(1);
  });

  it('answers 204 and hands nothing on for the steps before the message is out', async () => {
    const path = '/v1/carriers/twilio/status';
    const params = { ...statusParams, MessageStatus: 'queued', SmsStatus: 'queued' };
    const res = await post(path, params, sign(deploymentToken, path, params));
    expect(res.statusCode).toBe(204);
    expect(handlers.statuses).toEqual([]);
  });

  it('hands a signed inbound MMS to the inbound handler, with its media, and answers empty TwiML', async () => {
    const path = '/v1/carriers/twilio/inbound';
    const before = Date.now();
    const res = await post(path, inboundParams, sign(deploymentToken, path, inboundParams));
    expect(res.statusCode, res.body).toBe(200);
    expect(handlers.received[0]?.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(handlers.received[0]?.receivedAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(handlers.received.map(({ receivedAt: _receivedAt, ...message }) => message)).toEqual([
      {
        carrierMessageId: 'MM00000000000000000000000000000077',
        from: '+14155550123',
        to: '+15005550006',
        text: 'Here is the photo & the x-ray ✓',
        media: [
          { url: inboundParams.MediaUrl0, contentType: 'image/jpeg' },
          { url: inboundParams.MediaUrl1, contentType: 'image/png' },
        ],
      },
    ]);
  });

  it('refuses (401) an unsigned, a tampered and a wrongly signed request, handing nothing on', async () => {
    const path = '/v1/carriers/twilio/status';
    const signature = sign(deploymentToken, path, statusParams);
    const attempts = [
      await post(path, statusParams, null),
      await post(path, { ...statusParams, MessageStatus: 'delivered', SmsStatus: 'delivered' }, signature),
      await post(path, { ...statusParams, Extra: 'x' }, signature),
      await post(path, statusParams, sign('another-token-0123456789abcdef00', path, statusParams)),
      await post(path, statusParams, ''),
      // Signed over the URL the request arrived at behind the proxy, not the one Twilio was given.
      await post(path, statusParams, twilio.getExpectedTwilioSignature(deploymentToken, `http://127.0.0.1:3000${path}`, statusParams)),
      // The right signature, but not a form post.
      await app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json', 'x-twilio-signature': signature },
        payload: statusParams,
      }),
      await app.inject({ method: 'POST', url: path, headers: { 'x-twilio-signature': signature } }),
    ];
    for (const [index, res] of attempts.entries()) {
      expect(res.statusCode, `attempt ${String(index)}: ${res.body}`).toBe(401);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('unauthorized');
    }
    const inboundPath = '/v1/carriers/twilio/inbound';
    const tamperedInbound = await post(inboundPath, { ...inboundParams, Body: 'STOP' }, sign(deploymentToken, inboundPath, inboundParams));
    expect(tamperedInbound.statusCode).toBe(401);
    expect(handlers.statuses).toEqual([]);
    expect(handlers.received).toEqual([]);
  });

  it('answers 400 to a signed request it cannot read, handing nothing on', async () => {
    const path = '/v1/carriers/twilio/status';
    const { MessageSid: _dropped, ...params } = statusParams;
    const res = await post(path, params, sign(deploymentToken, path, params));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toBe('MessageSid is missing');
    const unknown = { ...statusParams, MessageStatus: 'teleported' };
    expect((await post(path, unknown, sign(deploymentToken, path, unknown))).statusCode).toBe(400);
    expect(handlers.statuses).toEqual([]);
  });

  it("checks an account's own connection against its own auth token", async () => {
    const statusPath = `/v1/carriers/twilio/${twilioSettingsId}/status`;
    const ok = await post(statusPath, statusParams, sign(accountToken, statusPath, statusParams));
    expect(ok.statusCode, ok.body).toBe(204);
    expect(handlers.statuses).toHaveLength(1);

    const inboundPath = `/v1/carriers/twilio/${twilioSettingsId}/inbound`;
    const inbound = await post(inboundPath, inboundParams, sign(accountToken, inboundPath, inboundParams));
    expect(inbound.statusCode).toBe(200);
    expect(inbound.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(handlers.received).toHaveLength(1);
    // Receipts and messages are handed on as the account's connection's, not the deployment's.
    expect(handlers.sources.slice(-2)).toEqual([
      { carrier: 'twilio', carrierSettingsId: twilioSettingsId },
      { carrier: 'twilio', carrierSettingsId: twilioSettingsId },
    ]);

    // The deployment's token does not sign for the account's connection, nor the account's for the deployment.
    expect((await post(statusPath, statusParams, sign(deploymentToken, statusPath, statusParams))).statusCode).toBe(401);
    const deploymentPath = '/v1/carriers/twilio/status';
    expect((await post(deploymentPath, statusParams, sign(accountToken, deploymentPath, statusParams))).statusCode).toBe(401);
    expect(handlers.statuses).toHaveLength(1);
  });

  it('answers 404 for a connection that is not a Twilio connection', async () => {
    for (const id of [crypto.randomUUID(), smppSettingsId, 'not-an-id']) {
      const path = `/v1/carriers/twilio/${id}/status`;
      const res = await post(path, statusParams, sign(accountToken, path, statusParams));
      expect(res.statusCode, id).toBe(404);
    }
    expect(handlers.statuses).toEqual([]);
  });

  it("answers 404 on the deployment's routes when the deployment has no Twilio account", async () => {
    const bare = await webhookApp(database, { PUBLIC_URL }, { ...handlers, forConnection: () => handlers });
    try {
      const path = '/v1/carriers/twilio/status';
      const res = await bare.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sign(deploymentToken, path, statusParams) },
        payload: form(statusParams),
      });
      expect(res.statusCode).toBe(404);
      expect(handlers.statuses).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
