import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { carrierSettings } from '../../platform/db/schema/index.js';
import { SecretCipher } from '../../platform/secrets/cipher.js';
import { SecretsKeyMissingError } from '../../platform/secrets/keyring.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import type { CarrierHandlers, OutboundMessage, StatusReport } from './carrier.js';
import { secretContext } from './connections.js';
import { buildCarrierRegistry } from './deployment.js';
import { CarrierUnavailableError, type CarrierRegistry } from './registry.js';
import { SimulatorCarrier } from './simulator/simulatorCarrier.js';
import { SmppCarrier } from './smpp/smppCarrier.js';
import { SMSC_PASSWORD, SMSC_SYSTEM_ID, TestSmsc } from './smpp/test/testSmsc.js';
import { TwilioApiPeer } from './twilio/test/testTwilioPeer.js';
import type { EngineHandlers } from './registry.js';

const PUBLIC_URL = 'https://sms.example.test';
const deploymentSid = 'AC00000000000000000000000000000001';
const deploymentToken = 'deployment-token-0123456789abcdef';
const accountSid = 'AC00000000000000000000000000000002';
const accountToken = 'account-token-0123456789abcdef00';
const key = crypto.randomBytes(32);
const cipher = new SecretCipher(key);

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { id: 'msg-1', accountId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', from: '+15005550006', to: '+14155550123', text: 'Hello', encoding: 'GSM-7', segments: 1, media: [], ...overrides };
}

function recorder(): EngineHandlers & { statuses: StatusReport[] } {
  const statuses: StatusReport[] = [];
  const handlers: CarrierHandlers = {
    status: (report) => {
      statuses.push(report);
      return Promise.resolve();
    },
    statusMany: (reports) => {
      statuses.push(...reports);
      return Promise.resolve();
    },
    inbound: () => Promise.resolve(),
  };
  return { ...handlers, statuses, forConnection: () => handlers };
}

describe.each(testDatabaseKinds)('buildCarrierRegistry on %s', (kind) => {
  let database: Database;
  let accountId: string;
  const deploymentPeer = new TwilioApiPeer(deploymentSid, deploymentToken);
  const accountPeer = new TwilioApiPeer(accountSid, accountToken);
  let deploymentApi: string;
  let accountApi: string;
  let smsc: TestSmsc;
  let registries: CarrierRegistry[];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    accountId = (await createAccount(database.db)).id;
    deploymentApi = await deploymentPeer.start();
    accountApi = await accountPeer.start();
  });
  afterAll(async () => {
    await deploymentPeer.close();
    await accountPeer.close();
    await database.close();
  });
  beforeEach(async () => {
    smsc = await TestSmsc.start();
    registries = [];
    deploymentPeer.requests.length = 0;
    accountPeer.requests.length = 0;
    accountPeer.authToken = accountToken;
  });
  afterEach(async () => {
    for (const registry of registries) await registry.stop();
    await smsc.close();
  });

  function registry(env: Record<string, string>, connectionRecheckMs?: number): CarrierRegistry {
    const built = buildCarrierRegistry(
      testConfig({ PUBLIC_URL, ...env }),
      database,
      silentLogger(),
      connectionRecheckMs === undefined ? {} : { connectionRecheckMs },
    );
    registries.push(built);
    return built;
  }

  async function insertConnection(carrier: 'smpp' | 'twilio', settings: Record<string, string | number | boolean>, secret: string) {
    const id = crypto.randomUUID();
    await database.db.insert(carrierSettings).values({
      id,
      accountId,
      carrier,
      name: `${carrier} ${id}`,
      settings,
      secret: cipher.encrypt(secret, secretContext(id)),
    });
    return id;
  }

  it('runs the simulator alone by default', async () => {
    const carriers = registry({});
    expect(carriers.defaultCarrier).toBe('simulator');
    expect(carriers.configured).toEqual(['simulator']);
    expect(await carriers.forNumber({ carrier: 'simulator', carrierSettingsId: null })).toBeInstanceOf(SimulatorCarrier);
    await expect(carriers.forNumber({ carrier: 'twilio', carrierSettingsId: null })).rejects.toBeInstanceOf(CarrierUnavailableError);
    await expect(carriers.forNumber({ carrier: 'smpp', carrierSettingsId: null })).rejects.toBeInstanceOf(CarrierUnavailableError);
  });

  it('leaves the simulator out when SIMULATOR is false', async () => {
    const carriers = registry({ SIMULATOR: 'false' });
    expect(carriers.configured).toEqual([]);
    await expect(carriers.forNumber({ carrier: 'simulator', carrierSettingsId: null })).rejects.toThrow(
      'the simulator carrier is not configured for this deployment',
    );
  });

  it("sends through the deployment's Twilio account with our status callback, and calls from TWILIO_CALLER_ID", async () => {
    const carriers = registry({
      TWILIO_ACCOUNT_SID: deploymentSid,
      TWILIO_AUTH_TOKEN: deploymentToken,
      TWILIO_API_BASE_URL: deploymentApi,
      TWILIO_CALLER_ID: '+15005550001',
      CARRIER: 'twilio',
    });
    expect(carriers.defaultCarrier).toBe('twilio');
    expect(carriers.configured).toEqual(['simulator', 'twilio']);
    const twilio = await carriers.forNumber({ carrier: 'twilio', carrierSettingsId: null });
    expect(await twilio.send(message())).toMatchObject({ accepted: true });
    expect(deploymentPeer.requests[0]?.form.get('StatusCallback')).toBe(`${PUBLIC_URL}/v1/carriers/twilio/status`);
    await twilio.placeVerificationCall?.({ from: '+15005550006', to: '+14155550123', code: '123456' });
    expect(deploymentPeer.requests[1]?.path).toBe(`/2010-04-01/Accounts/${deploymentSid}/Calls.json`);
    expect(deploymentPeer.requests[1]?.form.get('From')).toBe('+15005550001');
  });

  it("binds to the deployment's SMSC from SMPP_URL when started, with SMPP_WINDOW outstanding submits at most", async () => {
    const carriers = registry({ SMPP_URL: `smpp://${SMSC_SYSTEM_ID}:${SMSC_PASSWORD}@127.0.0.1:${String(smsc.port)}`, SMPP_WINDOW: '2' });
    expect(carriers.configured).toEqual(['simulator', 'smpp']);
    await carriers.start(recorder());
    expect(smsc.binds).toBe(1);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    smsc.respond = async (_pdu, nextId) => {
      await gate;
      return { message_id: nextId };
    };
    const smpp = await carriers.forNumber({ carrier: 'smpp', carrierSettingsId: null });
    expect(smpp).toBeInstanceOf(SmppCarrier);
    const sends = [1, 2, 3, 4, 5].map((n) => smpp.send(message({ id: `msg-${String(n)}` })));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smsc.maxOutstanding).toBe(2);
    release();
    const results = await Promise.all(sends);
    expect(results.every((result) => result.accepted)).toBe(true);
  });

  it("sends through an account's own Twilio connection with its credentials and its webhook URL", async () => {
    const settingsId = await insertConnection('twilio', { accountSid }, accountToken);
    const carriers = registry({ SECRETS_KEY: key.toString('hex'), TWILIO_API_BASE_URL: accountApi });
    const twilio = await carriers.forNumber({ carrier: 'twilio', carrierSettingsId: settingsId });
    expect(twilio.name).toBe('twilio');
    expect(await twilio.send(message())).toMatchObject({ accepted: true });
    expect(accountPeer.requests[0]?.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(accountPeer.requests[0]?.form.get('StatusCallback')).toBe(`${PUBLIC_URL}/v1/carriers/twilio/${settingsId}/status`);
    expect(deploymentPeer.requests).toEqual([]);
    expect(await carriers.forNumber({ carrier: 'twilio', carrierSettingsId: settingsId })).toBe(twilio);
  });

  it("binds an account's own SMPP connection with its decrypted password", async () => {
    const settingsId = await insertConnection('smpp', { host: '127.0.0.1', port: smsc.port, systemId: SMSC_SYSTEM_ID, tls: false }, SMSC_PASSWORD);
    const carriers = registry({ SECRETS_KEY: key.toString('base64') });
    await carriers.start(recorder());
    const smpp = await carriers.forNumber({ carrier: 'smpp', carrierSettingsId: settingsId });
    expect(smsc.binds).toBe(1);
    expect(await smpp.send(message())).toEqual({ accepted: true, carrierMessageId: 'msg-1' });
  });

  it('follows a change of the connection row: the next use after the recheck takes the new secret', async () => {
    const settingsId = await insertConnection('twilio', { accountSid }, 'an-old-token-0000000000000000000');
    const carriers = registry({ SECRETS_KEY: key.toString('hex'), TWILIO_API_BASE_URL: accountApi }, 0);
    const twilio = await carriers.forNumber({ carrier: 'twilio', carrierSettingsId: settingsId });
    expect(await twilio.send(message())).toMatchObject({ accepted: false, errorCode: '20003' });

    await database.db
      .update(carrierSettings)
      .set({ secret: cipher.encrypt(accountToken, secretContext(settingsId)), updatedAt: sql`clock_timestamp()` })
      .where(eq(carrierSettings.id, settingsId));
    expect(await twilio.send(message())).toMatchObject({ accepted: true });
  });

  it('keeps the working adapter when a changed row cannot be read, and answers unknown connections as unavailable', async () => {
    const settingsId = await insertConnection('twilio', { accountSid }, accountToken);
    const carriers = registry({ SECRETS_KEY: key.toString('hex'), TWILIO_API_BASE_URL: accountApi }, 0);
    const twilio = await carriers.forNumber({ carrier: 'twilio', carrierSettingsId: settingsId });
    // A secret of another key: the change cannot be opened, the adapter in use goes on.
    await database.db
      .update(carrierSettings)
      .set({ secret: new SecretCipher(crypto.randomBytes(32)).encrypt('x', secretContext(settingsId)), updatedAt: sql`clock_timestamp()` })
      .where(eq(carrierSettings.id, settingsId));
    expect(await twilio.send(message())).toMatchObject({ accepted: true });

    await expect(carriers.forNumber({ carrier: 'twilio', carrierSettingsId: crypto.randomUUID() })).rejects.toBeInstanceOf(
      CarrierUnavailableError,
    );
  });

  it('opens no account connection on PostgreSQL without SECRETS_KEY, saying why', async () => {
    const settingsId = await insertConnection('twilio', { accountSid }, accountToken);
    const carriers = registry({ DATABASE_URL: 'postgres://parley@db.example.test/parley', TWILIO_API_BASE_URL: accountApi });
    expect(carriers.configured).toEqual([]);
    await expect(carriers.forNumber({ carrier: 'twilio', carrierSettingsId: settingsId })).rejects.toBeInstanceOf(SecretsKeyMissingError);
    await expect(carriers.forNumber({ carrier: 'twilio', carrierSettingsId: crypto.randomUUID() })).rejects.toBeInstanceOf(
      CarrierUnavailableError,
    );
    expect(accountPeer.requests).toEqual([]);
  });
});
