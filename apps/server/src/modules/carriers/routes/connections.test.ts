import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { CarrierConnection } from '@parley/shared';
import { carrierSettings, phoneNumbers } from '../../../platform/db/schema/index.js';
import { SecretCipher } from '../../../platform/secrets/cipher.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createPhoneNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

const key = crypto.randomBytes(32);
const cipher = new SecretCipher(key);
const PUBLIC_URL = 'https://sms.example.test';
const env = { SECRETS_KEY: key.toString('base64'), PUBLIC_URL };

const twilioToken = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const smppBody = {
  carrier: 'smpp',
  name: 'Our SMSC',
  settings: { host: 'smsc.example.net', port: 2775, systemId: 'acme', systemType: 'VMA', tls: true },
  secret: 'pa$$w0rd',
};
const twilioBody = {
  carrier: 'twilio',
  name: 'Our Twilio',
  settings: { accountSid: 'AC0123456789abcdef0123456789abcdef' },
  secret: twilioToken,
};

describe.each(testDatabaseKinds)('carrier connections of an account on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env });

  const url = (accountId: string, id?: string) => `/v1/accounts/${accountId}/carriers${id === undefined ? '' : `/${id}`}`;
  const rawRow = async (id: string) => {
    const [row] = await h.database.db.select().from(carrierSettings).where(eq(carrierSettings.id, id));
    return row;
  };

  async function created(accountId: string, token: string, body: object): Promise<CarrierConnection> {
    const res = await h.call('POST', url(accountId), token, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: CarrierConnection }>().data;
  }

  it('adds an SMPP connection, storing the password only encrypted and answering it masked', async () => {
    const { account, token } = await ownAccount();
    const connection = await created(account.id, token, smppBody);
    expect(connection).toMatchObject({
      carrier: 'smpp',
      name: 'Our SMSC',
      settings: { host: 'smsc.example.net', port: 2775, systemId: 'acme', systemType: 'VMA', tls: true },
      // An 8-character password shows none of its characters.
      secret: '••••••••',
      phoneNumbers: 0,
    });

    const row = await rawRow(connection.id);
    expect(row?.accountId).toBe(account.id);
    expect(JSON.stringify(row)).not.toContain('pa$$w0rd');
    expect(row?.secret).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(cipher.decrypt(row?.secret ?? '', `carrier_settings:${connection.id}`)).toBe('pa$$w0rd');
  });

  it('adds a Twilio connection with its webhook URLs, showing the last four characters of the token only', async () => {
    const { account, token } = await ownAccount();
    const connection = await created(account.id, token, { ...twilioBody, settings: { ...twilioBody.settings, callerId: '+14155550100' } });
    expect(connection).toEqual({
      id: connection.id,
      carrier: 'twilio',
      name: 'Our Twilio',
      settings: { accountSid: 'AC0123456789abcdef0123456789abcdef', callerId: '+14155550100' },
      secret: '••••••••1e0f',
      phoneNumbers: 0,
      webhooks: {
        statusCallbackUrl: `${PUBLIC_URL}/v1/carriers/twilio/${connection.id}/status`,
        inboundUrl: `${PUBLIC_URL}/v1/carriers/twilio/${connection.id}/inbound`,
        voiceUrl: `${PUBLIC_URL}/v1/carriers/twilio/${connection.id}/voice`,
      },
      created: { at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as unknown },
      updated: { at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as unknown },
    });
    const row = await rawRow(connection.id);
    expect(JSON.stringify(row)).not.toContain(twilioToken);
    expect(JSON.stringify(row)).not.toContain(twilioToken.slice(0, 12));

    const list = await h.call('GET', url(account.id), token);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(twilioToken);
    expect(list.json<{ data: CarrierConnection[]; pagination: object }>()).toEqual({
      data: [connection],
      pagination: { totalCount: 1, offset: 0, limit: 10 },
    });
    const one = await h.call('GET', url(account.id, connection.id), token);
    expect(one.json<{ data: CarrierConnection }>().data).toEqual(connection);
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const { account, token } = await ownAccount();
    const cases: [object, string][] = [
      [{ ...smppBody, name: '  ' }, 'name: Required'],
      [{ ...smppBody, carrier: 'nexmo' }, 'Must be smpp or twilio'],
      [{ ...smppBody, secret: 'longer-than-8' }, 'secret: At most 8 characters (SMPP 3.4)'],
      [{ ...smppBody, secret: undefined }, 'secret: Required'],
      [{ ...smppBody, settings: { ...smppBody.settings, port: 70000 } }, 'settings.port: Must be a port from 1 to 65535'],
      [{ ...smppBody, settings: { ...smppBody.settings, host: 'smsc example' } }, 'settings.host: Must be a host name or an IP address'],
      [{ ...smppBody, settings: { ...smppBody.settings, systemId: 'a-system-id-too-long' } }, 'settings.systemId: At most 15 characters (SMPP 3.4)'],
      [{ ...twilioBody, settings: { accountSid: 'SK0123' } }, 'settings.accountSid: Must be a Twilio Account SID'],
      [{ ...twilioBody, settings: { ...twilioBody.settings, callerId: '0800' } }, 'settings.callerId: Must be a phone number in E.164 form'],
    ];
    for (const [body, message] of cases) {
      const res = await h.call('POST', url(account.id), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: { code: string; message: string } }>().error.message).toContain(message);
    }
    const rows = await h.database.db.select().from(carrierSettings).where(eq(carrierSettings.accountId, account.id));
    expect(rows).toEqual([]);
  });

  it('is for administrators only', async () => {
    for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
      const res = await h.call('POST', url(fixtures.accountId), tokens[role], smppBody);
      expect(res.statusCode, role).toBe(403);
      expect((await h.call('GET', url(fixtures.accountId), tokens[role])).statusCode, role).toBe(403);
    }
    const rows = await h.database.db.select().from(carrierSettings).where(eq(carrierSettings.accountId, fixtures.accountId));
    expect(rows).toEqual([]);
    const res = await h.call('POST', url(fixtures.accountId), tokens.Administrator, smppBody);
    expect(res.statusCode).toBe(201);
    expect((await h.call('GET', url(fixtures.accountId), tokens.Administrator)).statusCode).toBe(200);
  });

  it('changes a connection, keeping the stored secret unless a new one is given, and never its carrier', async () => {
    const { account, token } = await ownAccount();
    const connection = await created(account.id, token, twilioBody);
    const before = await rawRow(connection.id);

    const renamed = await h.call('PUT', url(account.id, connection.id), token, {
      carrier: 'twilio',
      name: 'Renamed',
      settings: { accountSid: 'AC00000000000000000000000000000002' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ data: CarrierConnection }>().data).toMatchObject({
      name: 'Renamed',
      settings: { accountSid: 'AC00000000000000000000000000000002', callerId: null },
      secret: '••••••••1e0f',
    });
    const kept = await rawRow(connection.id);
    expect(kept?.secret).toBe(before?.secret);
    expect(kept?.updatedAt.getTime()).toBeGreaterThan(before?.updatedAt.getTime() ?? Infinity);

    const emptySecret = await h.call('PUT', url(account.id, connection.id), token, { ...twilioBody, secret: '' });
    expect(emptySecret.statusCode).toBe(200);
    expect((await rawRow(connection.id))?.secret).toBe(before?.secret);

    const newToken = '00112233445566778899aabbccddeeff';
    const rotated = await h.call('PUT', url(account.id, connection.id), token, { ...twilioBody, secret: newToken });
    expect(rotated.json<{ data: CarrierConnection }>().data.secret).toBe('••••••••eeff');
    const row = await rawRow(connection.id);
    expect(row?.secret).not.toBe(before?.secret);
    expect(JSON.stringify(row)).not.toContain(newToken);
    expect(cipher.decrypt(row?.secret ?? '', `carrier_settings:${connection.id}`)).toBe(newToken);

    const otherCarrier = await h.call('PUT', url(account.id, connection.id), token, smppBody);
    expect(otherCarrier.statusCode).toBe(409);
    expect(otherCarrier.json<{ error: { message: string } }>().error.message).toBe(
      'The carrier of a connection cannot be changed; add a new connection instead',
    );
    expect((await rawRow(connection.id))?.carrier).toBe('twilio');
  });

  it("answers 404 for another account's connection and changes nothing", async () => {
    const mine = await ownAccount();
    const theirs = await ownAccount();
    const connection = await created(theirs.account.id, theirs.token, smppBody);
    const before = await rawRow(connection.id);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { ...smppBody, name: 'Taken over' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await h.call(method, url(mine.account.id, connection.id), mine.token, body);
      expect(res.statusCode, method).toBe(404);
      expect(res.body).not.toContain('Our SMSC');
    }
    expect(await rawRow(connection.id)).toEqual(before);
  });

  it('removes a connection no number uses, and refuses (409) while one does', async () => {
    const { account, token } = await ownAccount();
    const connection = await created(account.id, token, twilioBody);
    const number = await createPhoneNumber(h.database.db, account.id, { carrier: 'twilio', carrierSettingsId: connection.id });
    const released = await createPhoneNumber(h.database.db, account.id, {
      carrier: 'twilio',
      carrierSettingsId: connection.id,
      status: 'released',
    });
    expect((await h.call('GET', url(account.id, connection.id), token)).json<{ data: CarrierConnection }>().data.phoneNumbers).toBe(1);

    const refused = await h.call('DELETE', url(account.id, connection.id), token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(
      'This connection is used by phone numbers; move or release them first',
    );
    expect(await rawRow(connection.id)).toBeDefined();

    await h.database.db.update(phoneNumbers).set({ status: 'released' }).where(eq(phoneNumbers.id, number.id));
    const removed = await h.call('DELETE', url(account.id, connection.id), token);
    expect(removed.statusCode).toBe(204);
    expect(await rawRow(connection.id)).toBeUndefined();
    const [kept] = await h.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, released.id));
    expect(kept?.carrierSettingsId).toBeNull();
    expect((await h.call('DELETE', url(account.id, connection.id), token)).statusCode).toBe(404);
  });
});

describe.each(testDatabaseKinds)('carrier connections without a key on %s', (kind) => {
  describe('on PostgreSQL without SECRETS_KEY', () => {
    const { h, ownAccount } = useRouteHarness(kind, { env: { DATABASE_URL: 'postgres://parley@db.example.test/parley', PUBLIC_URL } });

    it('refuses to store a connection, naming SECRETS_KEY, and still lists', async () => {
      const { account, token } = await ownAccount();
      const res = await h.call('POST', `/v1/accounts/${account.id}/carriers`, token, smppBody);
      expect(res.statusCode).toBe(409);
      expect(res.json<{ error: { message: string } }>().error.message).toMatch(/^Carrier connections of an account need SECRETS_KEY/);
      const list = await h.call('GET', `/v1/accounts/${account.id}/carriers`, token);
      expect(list.json<{ data: unknown[] }>().data).toEqual([]);
      const rows = await h.database.db.select().from(carrierSettings).where(eq(carrierSettings.accountId, account.id));
      expect(rows).toEqual([]);
    });
  });

  describe('on the embedded database without SECRETS_KEY', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-carriers-'));
    const { h, ownAccount } = useRouteHarness(kind, { env: { DATA_DIR: dataDir, PUBLIC_URL } });
    afterAll(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('generates DATA_DIR/secrets.key (mode 0600) with the first connection and encrypts with it', async () => {
      const keyFile = path.join(dataDir, 'secrets.key');
      const { account, token } = await ownAccount();
      expect((await h.call('GET', `/v1/accounts/${account.id}/carriers`, token)).statusCode).toBe(200);
      expect(fs.existsSync(keyFile)).toBe(false);

      const res = await h.call('POST', `/v1/accounts/${account.id}/carriers`, token, twilioBody);
      expect(res.statusCode).toBe(201);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const fileCipher = new SecretCipher(Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64'));
      const id = res.json<{ data: CarrierConnection }>().data.id;
      const [row] = await h.database.db.select().from(carrierSettings).where(eq(carrierSettings.id, id));
      expect(fileCipher.decrypt(row?.secret ?? '', `carrier_settings:${id}`)).toBe(twilioToken);
    });
  });
});
