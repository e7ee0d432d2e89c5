import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneMedia, SIMULATOR_MEDIA_TTL_SECONDS } from '../carriers/simulator/media.js';
import { TwilioApiPeer } from '../carriers/twilio/testTwilioPeer.js';
import { TwilioCarrier } from '../carriers/twilio/twilioCarrier.js';
import { testConfig } from '../test/config.js';
import { carrierMediaUrl, registerCarrierMedia } from './carrierMediaUrls.js';
import { createMediaServices } from './services.js';

const accountId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const fileId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const publicUrl = 'https://media-signing.example.test';
const ownUrl = `${publicUrl}/v1/accounts/${accountId}/media/${fileId}`;
const key = 'a'.repeat(64);

describe('media URLs given to carriers', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-carrier-media-'));
  const services = createMediaServices(testConfig({ DATA_DIR: dataDir, PUBLIC_URL: publicUrl, SECRETS_KEY: key }));
  let unregister: () => void = () => undefined;
  beforeAll(() => {
    unregister = registerCarrierMedia(services);
  });
  afterAll(() => {
    unregister();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs our account media URLs for an hour and leaves any other URL alone', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const signed = new URL(await carrierMediaUrl(ownUrl, { now }));
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
      expect(await carrierMediaUrl(other)).toBe(other);
    }
  });

  it('gives unsigned URLs once the deployment is gone, and none without a key', async () => {
    const keyless = createMediaServices(testConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', SIMULATOR: 'true', PUBLIC_URL: 'https://keyless.example.test' }));
    const off = registerCarrierMedia(keyless);
    const theirs = `https://keyless.example.test/v1/accounts/${accountId}/media/${fileId}`;
    expect(await carrierMediaUrl(theirs)).toBe(theirs);
    off();
    expect(await carrierMediaUrl(theirs)).toBe(theirs);
  });

  it("hands Twilio the signed URL at submit time", async () => {
    const peer = new TwilioApiPeer('AC00000000000000000000000000000009', 'token');
    const apiBaseUrl = await peer.start();
    const carrier = new TwilioCarrier({ accountSid: peer.accountSid, authToken: 'token', apiBaseUrl, statusCallbackUrl: `${publicUrl}/s`, inboundUrl: `${publicUrl}/i` });
    try {
      const result = await carrier.send({
        id: 'm1',
        from: '+15005550006',
        to: '+14155550123',
        text: '',
        encoding: 'GSM-7',
        segments: 1,
        media: [
          { url: ownUrl, contentType: 'image/png' },
          { url: 'https://cdn.example.com/cat.png', contentType: 'image/png' },
        ],
      });
      expect(result.accepted).toBe(true);
      const [sent, other] = peer.requests[0]?.form.getAll('MediaUrl') ?? [];
      expect(sent).toMatch(new RegExp(`^${publicUrl}/v1/media/${fileId}\\?expires=\\d+&signature=[\\w-]{43}$`));
      expect(other).toBe('https://cdn.example.com/cat.png');
    } finally {
      await carrier.stop();
      await peer.close();
    }
  });

  it('gives the virtual phones a URL that lasts 30 days', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const [item] = await phoneMedia([{ url: ownUrl, contentType: 'image/png' }], now);
    expect(new URL(item?.url ?? '').searchParams.get('expires')).toBe(String(now.getTime() / 1000 + SIMULATOR_MEDIA_TTL_SECONDS));
  });
});
