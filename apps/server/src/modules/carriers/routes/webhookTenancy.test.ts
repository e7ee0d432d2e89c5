import crypto from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretContext } from '../connections.js';
import { queryRows, type Database } from '../../../platform/db/client.js';
import { carrierSettings, type ContactRow, type PhoneNumberRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { createMessageHandlers } from '../../messaging/handlers.js';
import { SecretCipher } from '../../../platform/secrets/cipher.js';
import { testConfig } from '../../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../../test/databases.js';
import { createAccount } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { createPhoneNumber, uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { addContact } from '../../../test/sendingFixtures.js';
import { carrierWebhookRoutes } from './webhooks.js';

/*
 * What arrives on one carrier connection reaches only that connection's numbers: an administrator who
 * connects their own Twilio account knows its auth token and can sign any webhook for it, so the signature
 * proves only that the request is for that connection, never for another account's number.
 */

const PUBLIC_URL = 'https://sms.example.test';
const ownToken = 'fedcba9876543210fedcba9876543210';
const deploymentToken = '0123456789abcdef0123456789abcdef';
const key = crypto.randomBytes(32);

const form = (params: Record<string, string>): string => new URLSearchParams(params).toString();
const sign = (token: string, path: string, params: Record<string, string>): string =>
  twilio.getExpectedTwilioSignature(token, `${PUBLIC_URL}${path}`, params);
const messageSid = (): string => `SM${crypto.randomBytes(16).toString('hex')}`;

async function buildApp(database: Database) {
  const instance = Fastify().withTypeProvider<ZodTypeProvider>();
  instance.setValidatorCompiler(validatorCompiler);
  instance.setSerializerCompiler(serializerCompiler);
  instance.setErrorHandler((error, _request, reply) => {
    if (error instanceof AppError) return reply.code(error.statusCode).send({ error: { code: error.code, message: error.message } });
    return reply.code(500).send({ error: { code: 'internal_error', message: String(error) } });
  });
  const config = testConfig({
    PUBLIC_URL,
    TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000001',
    TWILIO_AUTH_TOKEN: deploymentToken,
    SECRETS_KEY: key.toString('hex'),
  });
  const handlers = createMessageHandlers({ database, log: silentLogger() });
  await instance.register(carrierWebhookRoutes, { prefix: '/v1', ctx: { config, database }, handlers });
  await instance.ready();
  return instance;
}

describe.each(testDatabaseKinds)('carrier connections reach only their own numbers, on %s', (kind) => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  /** The victim: a number on the deployment's simulator and a contact that has texted it. */
  let victimNumber: PhoneNumberRow;
  let victimContact: ContactRow;
  /** The attacker: an administrator with their own Twilio connection and a number on it. */
  let attackerConnection: string;
  let attackerNumber: PhoneNumberRow;
  /** A number on the deployment's Twilio account, of the victim. */
  let victimTwilioNumber: PhoneNumberRow;

  async function post(path: string, token: string, params: Record<string, string>): Promise<number> {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sign(token, path, params) },
      payload: form(params),
    });
    return res.statusCode;
  }

  const inboundCount = async (accountId: string): Promise<number> => {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from messages where account_id = ${accountId} and direction = 'inbound'`,
    );
    return row?.n ?? 0;
  };

  const optedOut = async (contactId: string): Promise<boolean> => {
    const [row] = await queryRows<{ opted_out: boolean }>(
      database.db,
      sql`select opted_out_at is not null as opted_out from contacts where id = ${contactId}`,
    );
    return row?.opted_out ?? false;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const victim = await createAccount(database.db);
    const attacker = await createAccount(database.db);
    victimNumber = await createPhoneNumber(database.db, victim.id);
    victimTwilioNumber = await createPhoneNumber(database.db, victim.id, { carrier: 'twilio' });
    victimContact = await addContact(database.db, victim.id, { mobileNumber: uniqueTestNumber() });
    attackerConnection = crypto.randomUUID();
    await database.db.insert(carrierSettings).values({
      id: attackerConnection,
      accountId: attacker.id,
      carrier: 'twilio',
      name: 'Own Twilio',
      settings: { accountSid: 'AC00000000000000000000000000000009' },
      secret: new SecretCipher(key).encrypt(ownToken, secretContext(attackerConnection)),
    });
    attackerNumber = await createPhoneNumber(database.db, attacker.id, { carrier: 'twilio', carrierSettingsId: attackerConnection });
    app = await buildApp(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("refuses a message signed for the attacker's own connection but sent to another account's number", async () => {
    const path = `/v1/carriers/twilio/${attackerConnection}/inbound`;
    for (const to of [victimNumber.number, victimTwilioNumber.number]) {
      const params = { AccountSid: 'AC00000000000000000000000000000009', MessageSid: messageSid(), From: victimContact.mobileNumber, To: to, Body: 'STOP', NumMedia: '0' };
      // Twilio is answered as for any number we do not have: nothing to retry, nothing learned.
      expect(await post(path, ownToken, params)).toBe(200);
    }
    expect(await inboundCount(victimNumber.accountId)).toBe(0);
    expect(await optedOut(victimContact.id)).toBe(false);
  });

  it("takes the attacker's own number on the attacker's connection, and nothing of it on the deployment's", async () => {
    const path = `/v1/carriers/twilio/${attackerConnection}/inbound`;
    const params = { AccountSid: 'AC00000000000000000000000000000009', MessageSid: messageSid(), From: uniqueTestNumber(), To: attackerNumber.number, Body: 'Hello', NumMedia: '0' };
    expect(await post(path, ownToken, params)).toBe(200);
    expect(await inboundCount(attackerNumber.accountId)).toBe(1);

    const viaDeployment = { ...params, MessageSid: messageSid() };
    expect(await post('/v1/carriers/twilio/inbound', deploymentToken, viaDeployment)).toBe(200);
    expect(await inboundCount(attackerNumber.accountId)).toBe(1);
  });

  it("takes the deployment's Twilio numbers on the deployment's route", async () => {
    const params = { AccountSid: 'AC00000000000000000000000000000001', MessageSid: messageSid(), From: uniqueTestNumber(), To: victimTwilioNumber.number, Body: 'Hi', NumMedia: '0' };
    const before = await inboundCount(victimTwilioNumber.accountId);
    expect(await post('/v1/carriers/twilio/inbound', deploymentToken, params)).toBe(200);
    expect(await inboundCount(victimTwilioNumber.accountId)).toBe(before + 1);
  });

  it('keeps an SMSC of an account to its own numbers, and its message ids out of the others', async () => {
    const handlers = createMessageHandlers({ database, log: silentLogger() });
    const ownSmscId = crypto.randomUUID();
    await database.db.insert(carrierSettings).values({
      id: ownSmscId,
      accountId: attackerNumber.accountId,
      carrier: 'smpp',
      name: 'Own SMSC',
      settings: { host: 'smsc.example.test', port: 2775, systemId: 'acme', tls: false },
      secret: new SecretCipher(key).encrypt('secret', secretContext(ownSmscId)),
    });
    const ownSmsc = { carrier: 'smpp' as const, carrierSettingsId: ownSmscId };
    const attackerSmppNumber = await createPhoneNumber(database.db, attackerNumber.accountId, { carrier: 'smpp', carrierSettingsId: ownSmscId });
    const victimSmppNumber = await createPhoneNumber(database.db, victimNumber.accountId, { carrier: 'smpp' });
    const stop = { carrierMessageId: '1', from: victimContact.mobileNumber, to: victimSmppNumber.number, text: 'STOP', media: [], receivedAt: new Date() };
    const before = await inboundCount(victimNumber.accountId);
    await handlers.forConnection(ownSmsc).inbound(stop);
    await handlers.forConnection(ownSmsc).inbound({ ...stop, carrierMessageId: '2', to: victimNumber.number });
    expect(await inboundCount(victimNumber.accountId)).toBe(before);
    expect(await optedOut(victimContact.id)).toBe(false);

    // SMSCs number their messages from 1: the id the attacker's SMSC used first, for the attacker's own
    // number, does not make the victim's message from the deployment's SMSC a "redelivery".
    const attackerBefore = await inboundCount(attackerNumber.accountId);
    await handlers.forConnection(ownSmsc).inbound({ ...stop, carrierMessageId: '7', to: attackerSmppNumber.number, text: 'Hi' });
    expect(await inboundCount(attackerNumber.accountId)).toBe(attackerBefore + 1);
    await handlers.forConnection({ carrier: 'smpp', carrierSettingsId: null }).inbound({ ...stop, carrierMessageId: '7', text: 'Hello' });
    expect(await inboundCount(victimNumber.accountId)).toBe(before + 1);
  });
});
