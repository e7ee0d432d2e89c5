import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@parley/shared';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { events, mediaFiles, messages } from '../../platform/db/schema/index.js';
import { JobQueue } from '../../platform/jobs/queue.js';
import { createMessageHandlers } from './handlers.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds, uniqueJobsSchema } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { addPhoneNumber, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../test/sendingFixtures.js';
import { INBOUND_MEDIA_MAX_BYTES } from '../media/inboundFetch.js';
import { inboundMediaJob, inboundMediaScheduler, keepInboundMedia } from './inboundMedia.js';
import { createMediaServices, type MediaServices } from '../media/services.js';
import { mediaKey } from '../media/storage.js';
import { MediaPeer } from '../media/test/testMediaPeer.js';
import { pngOf, sidewaysJpeg } from '../media/test/testImages.js';

const accountSid = 'AC0000000000000000000000000000abcd';
const authToken = 'media-test-token';
const publicUrl = 'https://sms.example.test';

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const read = async (media: MediaServices, key: string): Promise<Buffer> => {
  const stream = await media.storage.get(key);
  if (stream === null) throw new Error(`nothing stored under ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

describe.each(testDatabaseKinds)('inbound MMS media on %s', (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-inbound-media-'));
  const twilio = new MediaPeer();
  const elsewhere = new MediaPeer();
  let twilioUrl = '';
  let elsewhereUrl = '';
  let config: Config;
  let database: Database;
  let media: MediaServices;
  let account: SendingAccount;
  let twilioNumber = '';
  const log = silentLogger();
  const photo = sidewaysJpeg(60, 40);

  beforeAll(async () => {
    [twilioUrl, elsewhereUrl] = await Promise.all([twilio.start(), elsewhere.start()]);
    config = testConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_API_BASE_URL: twilioUrl,
      // The local peers stand in for carriers inside a private network, which the operator allows.
      FETCH_ALLOWED_HOSTS: '127.0.0.1',
    });
    database = await openTestDatabase(kind);
    media = createMediaServices(config);
    account = await sendingAccount(database.db);
    twilioNumber = (await addPhoneNumber(database.db, account.accountId, { carrier: 'twilio' })).number;
    const auth = { user: accountSid, password: authToken };
    const base = `/2010-04-01/Accounts/${accountSid}/Messages`;
    twilio.files.set(`${base}/MM1/Media/ME1`, { type: 'image/jpeg', bytes: await photo, auth });
    twilio.files.set(`${base}/MM2/Media/ME2`, { type: 'image/jpeg', bytes: await photo, auth, status: 503 });
    twilio.files.set(`${base}/MM3/Media/ME3`, { type: 'image/jpeg', bytes: Buffer.alloc(INBOUND_MEDIA_MAX_BYTES + 1, 1), auth });
    twilio.files.set(`${base}/MM4/Media/ME4`, { type: 'text/html', bytes: Buffer.from('<script>alert(1)</script>'), auth });
    elsewhere.files.set('/public/cat.png', { type: 'image/png', bytes: await pngOf(30, 20) });
  });
  afterAll(async () => {
    await database.close();
    await Promise.all([twilio.close(), elsewhere.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An inbound MMS through the engine's handlers, as a carrier hands it over; its message row. */
  async function receive(urls: string[], afterInbound?: Parameters<typeof createMessageHandlers>[0]['afterInbound']) {
    const carrierMessageId = `MM${crypto.randomUUID().replaceAll('-', '')}`;
    const handlers = createMessageHandlers({ database, log, ...(afterInbound === undefined ? {} : { afterInbound }) }).forConnection({ carrier: 'twilio', carrierSettingsId: null });
    await handlers.inbound({
      carrierMessageId,
      from: uniqueSendingTestNumber(),
      to: twilioNumber,
      text: 'Look',
      media: urls.map((url) => ({ url, contentType: 'image/jpeg' })),
      receivedAt: new Date(),
    });
    const [row] = await database.db.select().from(messages).where(eq(messages.carrierMessageId, carrierMessageId));
    if (!row) throw new Error('the inbound message was not stored');
    return row;
  }

  const messageRow = async (id: string) => {
    const [row] = await database.db.select().from(messages).where(eq(messages.id, id));
    if (!row) throw new Error('gone');
    return row;
  };

  it('fetches Twilio media with basic auth in the background, keeps it and points the message at it', async () => {
    const jobs = new JobQueue({ database, log, work: true, schedule: false, retryLimit: 0, retryDelaySeconds: 1, pollingIntervalSeconds: 0.5, schema: uniqueJobsSchema() });
    const job = inboundMediaJob({ database, media, config });
    await jobs.start([job]);
    try {
      const carrierUrl = `${twilioUrl}/2010-04-01/Accounts/${accountSid}/Messages/MM1/Media/ME1`;
      const message = await receive([carrierUrl], inboundMediaScheduler(jobs, job, config, log));
      expect(message.media[0]?.url).toBe(carrierUrl);
      await until(async () => (await messageRow(message.id)).media[0]?.url.startsWith(publicUrl) ?? false);

      const [file] = await database.db.select().from(mediaFiles).where(eq(mediaFiles.messageId, message.id));
      expect(file).toMatchObject({ accountId: account.accountId, source: 'inbound', contentType: 'image/jpeg', size: (await photo).length });
      if (!file) throw new Error('no media file');
      expect((await messageRow(message.id)).media).toEqual([
        { url: `${publicUrl}/v1/accounts/${account.accountId}/media/${file.id}`, type: 'image/jpeg', filename: 'ME1' },
      ]);
      expect(await read(media, mediaKey(account.accountId, file.id))).toEqual(await photo);
      expect(twilio.requests.find((r) => r.path.endsWith('/ME1'))?.authorization).toBe(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`);

      // The account's screens hear of the new media.
      const published = await database.db
        .select()
        .from(events)
        .where(and(eq(events.accountId, account.accountId), eq(events.type, 'messageStatus')));
      const data = published.map((e) => (e.data as { message: Message }).message).find((m) => m.id === message.id);
      expect(data?.media[0]?.url).toBe(`${publicUrl}/v1/accounts/${account.accountId}/media/${file.id}`);
    } finally {
      await jobs.stop(5000);
    }
  });

  it('keeps the carrier URL when the credentials are refused, and does not retry that', async () => {
    const url = `${twilioUrl}/2010-04-01/Accounts/${accountSid}/Messages/MM1/Media/ME1`;
    const message = await receive([url]);
    const wrong = testConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: 'wrong',
      TWILIO_API_BASE_URL: twilioUrl,
      FETCH_ALLOWED_HOSTS: '127.0.0.1',
    });
    const result = await keepInboundMedia({ database, media, config: wrong, log }, account.accountId, message.id);
    expect(result).toEqual({ kept: 0, failed: [{ url, reason: 'answered HTTP 401', retryable: false }] });
    expect((await messageRow(message.id)).media[0]?.url).toBe(url);
    expect(await database.db.select().from(mediaFiles).where(eq(mediaFiles.messageId, message.id))).toEqual([]);
  });

  it('keeps what it can: a carrier error may pass, a file too large or of another kind will not', async () => {
    const base = `${twilioUrl}/2010-04-01/Accounts/${accountSid}/Messages`;
    const urls = [`${base}/MM2/Media/ME2`, `${base}/MM3/Media/ME3`, `${base}/MM4/Media/ME4`, `${elsewhereUrl}/public/cat.png`];
    const message = await receive(urls);
    const result = await keepInboundMedia({ database, media, config, log }, account.accountId, message.id);
    expect(result.kept).toBe(1);
    expect(result.failed).toEqual([
      { url: urls[0], reason: 'answered HTTP 503', retryable: true },
      { url: urls[1], reason: `larger than ${String(INBOUND_MEDIA_MAX_BYTES)} bytes`, retryable: false },
      { url: urls[2], reason: 'not an image, video or audio file (text/html)', retryable: false },
    ]);
    const after = (await messageRow(message.id)).media;
    expect(after.slice(0, 3).map((m) => m.url)).toEqual(urls.slice(0, 3));
    // Type from the bytes; the carrier's credentials never go to another host.
    expect(after[3]).toMatchObject({ url: expect.stringMatching(new RegExp(`^${publicUrl}/v1/accounts/${account.accountId}/media/`)) as string, type: 'image/png' });
    expect(elsewhere.requests.every((r) => r.authorization === undefined)).toBe(true);

    // A second run only tries what is left.
    const before = twilio.requests.length;
    await keepInboundMedia({ database, media, config, log }, account.accountId, message.id);
    expect(elsewhere.requests.filter((r) => r.path === '/public/cat.png')).toHaveLength(1);
    expect(twilio.requests.length - before).toBe(3);
  });

  it('never fetches an attachment at an address of this machine or its network: the message keeps the link', async () => {
    const internal = new MediaPeer();
    const internalUrl = new URL(await internal.start());
    try {
      internal.files.set('/internal-admin', { type: 'image/png', bytes: await pngOf(10, 10) });
      const port = internalUrl.port;
      const urls = [
        `http://127.0.0.1:${port}/internal-admin`,
        `http://localhost:${port}/internal-admin`,
        // 127.0.0.1 in other spellings.
        `http://2130706433:${port}/internal-admin`,
        `http://0x7f.1:${port}/internal-admin`,
      ];
      const message = await receive(urls);
      // The deployment as shipped: no host allowed beyond the public internet.
      const guarded = testConfig({ DATA_DIR: dataDir, PUBLIC_URL: publicUrl, TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken });
      const result = await keepInboundMedia({ database, media, config: guarded, log }, account.accountId, message.id);
      expect(result.kept).toBe(0);
      expect(result.failed.map((f) => ({ url: f.url, retryable: f.retryable }))).toEqual(urls.map((url) => ({ url, retryable: false })));
      for (const failure of result.failed) expect(failure.reason).toMatch(/not a public address/);
      expect(internal.requests).toEqual([]);
      expect((await messageRow(message.id)).media.map((m) => m.url)).toEqual(urls);
      expect(await database.db.select().from(mediaFiles).where(eq(mediaFiles.messageId, message.id))).toEqual([]);
    } finally {
      await internal.close();
    }
  });

  it("keeps a virtual phone's sample picture without fetching it, and ignores another account's message", async () => {
    const message = await receive([`${publicUrl}/v1/simulator/media/sunrise.png`]);
    const other = await sendingAccount(database.db);
    expect(await keepInboundMedia({ database, media, config, log }, other.accountId, message.id)).toEqual({ kept: 0, failed: [] });
    expect(await keepInboundMedia({ database, media, config, log }, account.accountId, message.id)).toEqual({ kept: 1, failed: [] });
    expect((await messageRow(message.id)).media[0]).toMatchObject({ type: 'image/png', filename: 'sunrise.png' });
  });
});
