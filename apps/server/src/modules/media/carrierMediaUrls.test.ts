import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneMedia, SIMULATOR_MEDIA_TTL_SECONDS } from '../carriers/simulator/media.js';
import { TwilioApiPeer } from '../carriers/twilio/test/testTwilioPeer.js';
import { TwilioCarrier } from '../carriers/twilio/twilioCarrier.js';
import type { Database } from '../../platform/db/client.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { sendingAccount } from '../../test/sendingFixtures.js';
import { carrierMediaUrl, registerCarrierMedia } from './carrierMediaUrls.js';
import { mediaFileAccount, storeMediaFile } from './mediaFiles.js';
import { createMediaServices } from './services.js';
import { pngOf } from './test/testImages.js';

const publicUrl = 'https://media-signing.example.test';
const key = 'a'.repeat(64);

describe.each(testDatabaseKinds)('media URLs given to carriers on %s', (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-carrier-media-'));
  const services = createMediaServices(testConfig({ DATA_DIR: dataDir, PUBLIC_URL: publicUrl, SECRETS_KEY: key }));
  let database: Database;
  let unregister: () => void = () => undefined;
  let accountId = '';
  let fileId = '';
  let ownUrl = '';
  let otherAccountId = '';
  let otherFileId = '';
  const ownerOf = (id: string) => mediaFileAccount(database.db, id);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const store = async (account: string) =>
      (
        await storeMediaFile(database.db, services, {
          accountId: account,
          contentType: 'image/png',
          filename: 'a.png',
          bytes: await pngOf(4, 4),
          width: 4,
          height: 4,
          source: 'upload',
        })
      ).id;
    accountId = (await sendingAccount(database.db)).accountId;
    otherAccountId = (await sendingAccount(database.db)).accountId;
    fileId = await store(accountId);
    otherFileId = await store(otherAccountId);
    ownUrl = `${publicUrl}/v1/accounts/${accountId}/media/${fileId}`;
    unregister = registerCarrierMedia(services, ownerOf);
  });
  afterAll(async () => {
    unregister();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("signs the message's account's media URLs for an hour and leaves any other URL alone", async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const signed = new URL(await carrierMediaUrl(ownUrl, { accountId, now }));
    expect(`${signed.origin}${signed.pathname}`).toBe(`${publicUrl}/v1/media/${fileId}`);
    expect(signed.searchParams.get('expires')).toBe(String(now.getTime() / 1000 + 3600));
    const signer = await services.signer(false);
    expect(signer?.check(fileId, Number(signed.searchParams.get('expires')), signed.searchParams.get('signature') ?? undefined, now)).toBe('valid');

    for (const other of [
      'https://cdn.example.com/cat.png',
      `${publicUrl}/v1/simulator/media/sunrise.png`,
      `https://elsewhere.example.test/v1/accounts/${accountId}/media/${fileId}`,
      `${ownUrl}?download=1`,
    ]) {
      expect(await carrierMediaUrl(other, { accountId })).toBe(other);
    }
  });

  it("never signs another account's file: under its own address, forged under the sender's, or made up", async () => {
    for (const theirs of [
      `${publicUrl}/v1/accounts/${otherAccountId}/media/${otherFileId}`,
      `${publicUrl}/v1/accounts/${accountId}/media/${otherFileId}`,
      `${publicUrl}/v1/accounts/${accountId}/media/${randomUUID()}`,
    ]) {
      expect(await carrierMediaUrl(theirs, { accountId })).toBe(theirs);
    }
    // The same file is signed for a message of its own account.
    expect(await carrierMediaUrl(`${publicUrl}/v1/accounts/${otherAccountId}/media/${otherFileId}`, { accountId: otherAccountId })).toMatch(
      new RegExp(`^${publicUrl}/v1/media/${otherFileId}\\?expires=`),
    );
  });

  it('gives unsigned URLs once the deployment is gone, and none without a key', async () => {
    const keyless = createMediaServices(testConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', SIMULATOR: 'true', PUBLIC_URL: 'https://keyless.example.test' }));
    const off = registerCarrierMedia(keyless, ownerOf);
    const theirs = `https://keyless.example.test/v1/accounts/${accountId}/media/${fileId}`;
    expect(await carrierMediaUrl(theirs, { accountId })).toBe(theirs);
    off();
    expect(await carrierMediaUrl(theirs, { accountId })).toBe(theirs);
  });

  it('hands Twilio the signed URL of its own media at submit time, and none of another account', async () => {
    const peer = new TwilioApiPeer('AC00000000000000000000000000000009', 'token');
    const apiBaseUrl = await peer.start();
    const carrier = new TwilioCarrier({ accountSid: peer.accountSid, authToken: 'token', apiBaseUrl, statusCallbackUrl: `${publicUrl}/s`, inboundUrl: `${publicUrl}/i` });
    const foreign = `${publicUrl}/v1/accounts/${otherAccountId}/media/${otherFileId}`;
    try {
      const result = await carrier.send({
        id: 'm1',
        accountId,
        from: '+15005550006',
        to: '+14155550123',
        text: '',
        encoding: 'GSM-7',
        segments: 1,
        media: [
          { url: ownUrl, contentType: 'image/png' },
          { url: 'https://cdn.example.com/cat.png', contentType: 'image/png' },
          { url: foreign, contentType: 'image/png' },
        ],
      });
      expect(result.accepted).toBe(true);
      const [sent, other, unsigned] = peer.requests[0]?.form.getAll('MediaUrl') ?? [];
      expect(sent).toMatch(new RegExp(`^${publicUrl}/v1/media/${fileId}\\?expires=\\d+&signature=[\\w-]{43}$`));
      expect(other).toBe('https://cdn.example.com/cat.png');
      expect(unsigned).toBe(foreign);
    } finally {
      await carrier.stop();
      await peer.close();
    }
  });

  it('gives the virtual phones a URL that lasts 30 days, for their message’s account’s media only', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const foreign = `${publicUrl}/v1/accounts/${accountId}/media/${otherFileId}`;
    const [item, theirs] = await phoneMedia(
      accountId,
      [
        { url: ownUrl, contentType: 'image/png' },
        { url: foreign, contentType: 'image/png' },
      ],
      now,
    );
    expect(new URL(item?.url ?? '').searchParams.get('expires')).toBe(String(now.getTime() / 1000 + SIMULATOR_MEDIA_TTL_SECONDS));
    expect(theirs?.url).toBe(foreign);
  });
});
