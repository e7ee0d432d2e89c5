import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MEDIA_UPLOAD_MAX_BYTES,
  MEDIA_UPLOAD_ONE_FILE_MESSAGE,
  MEDIA_UPLOAD_TOO_LARGE_MESSAGE,
  MEDIA_UPLOAD_TYPE_MESSAGE,
  type Role,
  type SharedFile,
} from '@parley/shared';
import { mediaFiles } from '../../../platform/db/schema/index.js';
import { animatedGif, multipartBody, pngOf, sidewaysJpeg } from '../test/testImages.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sharefile-'));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(testDatabaseKinds)('tools/sharefile on %s', (kind) => {
  const publicUrl = 'https://sms.example.test';
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env: { DATA_DIR: dataDir, PUBLIC_URL: publicUrl } });

  const upload = (acc: string, token: string, body: ReturnType<typeof multipartBody> | { json: object }, query = '?resize=500') =>
    h.app.inject({
      method: 'POST',
      url: `/v1/accounts/${acc}/tools/sharefile${query}`,
      headers:
        'json' in body
          ? { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
          : { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: 'json' in body ? JSON.stringify(body.json) : body.payload,
    });

  const picture = (bytes: Buffer, filename = 'holiday.png', type = 'image/png') => multipartBody([{ file: 'file', filename, type, bytes }]);

  const filesOf = (accountId: string) => h.database.db.select().from(mediaFiles).where(eq(mediaFiles.accountId, accountId));
  const storedFilesOf = (accountId: string): string[] => {
    const dir = path.join(dataDir, 'media', accountId);
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  it('fits a picture within 500 px, stores it and answers its link', async () => {
    const { account, admin, token } = await ownAccount();
    const res = await upload(account.id, token, picture(await pngOf(1200, 800)));
    expect(res.statusCode, res.body).toBe(201);
    const shared = res.json<{ data: SharedFile }>().data;
    expect(shared).toEqual({
      id: expect.any(String) as string,
      link: `${publicUrl}/v1/accounts/${account.id}/media/${shared.id}`,
      type: 'image/png',
      filename: 'holiday.png',
      width: 500,
      height: 333,
      size: expect.any(Number) as number,
    });
    const [row] = await filesOf(account.id);
    expect(row).toMatchObject({ id: shared.id, source: 'upload', storage: 'disk', contentType: 'image/png', size: shared.size, createdByUserId: admin.id, messageId: null });
    expect(storedFilesOf(account.id)).toEqual([shared.id]);

    const served = await h.call('GET', `/v1/accounts/${account.id}/media/${shared.id}`, token);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 500, 333]);
  });

  it('never enlarges, keeps the size without resize, turns photos upright and keeps a GIF animated', async () => {
    const { account, token } = await ownAccount();
    const small = (await upload(account.id, token, picture(await pngOf(120, 60)))).json<{ data: SharedFile }>().data;
    expect([small.width, small.height]).toEqual([120, 60]);
    const unresized = (await upload(account.id, token, picture(await pngOf(900, 300)), '')).json<{ data: SharedFile }>().data;
    expect([unresized.width, unresized.height]).toEqual([900, 300]);

    // Stored 800 wide and 400 high, shown turned: 400 wide, 800 high, fitted to 250 x 500.
    const photo = await upload(account.id, token, picture(await sidewaysJpeg(800, 400), 'IMG_0001.JPG', 'image/jpeg'));
    expect(photo.json<{ data: SharedFile }>().data).toMatchObject({ type: 'image/jpeg', width: 250, height: 500 });

    const gif = (await upload(account.id, token, picture(await animatedGif(800, 400), 'wave.gif', 'image/gif'))).json<{ data: SharedFile }>().data;
    expect(gif).toMatchObject({ type: 'image/gif', width: 500, height: 250 });
    const served = await h.call('GET', `/v1/accounts/${account.id}/media/${gif.id}`, token);
    expect((await sharp(served.rawPayload).metadata()).pages).toBe(3);
  });

  it('takes the type from the bytes, not from the name or the header', async () => {
    const { account, token } = await ownAccount();
    const jpegAsPng = await upload(account.id, token, picture(await sidewaysJpeg(50, 50), 'looks.png', 'image/png'));
    expect(jpegAsPng.json<{ data: SharedFile }>().data.type).toBe('image/jpeg');
  });

  it.each<[string, () => Promise<ReturnType<typeof multipartBody> | { json: object }>, number, string]>([
    ['a text file named .png', () => Promise.resolve(picture(Buffer.from('hello, not a picture'), 'fake.png', 'image/png')), 400, MEDIA_UPLOAD_TYPE_MESSAGE],
    [
      'an SVG (not an accepted type)',
      () => Promise.resolve(picture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'a.svg', 'image/svg+xml')),
      400,
      MEDIA_UPLOAD_TYPE_MESSAGE,
    ],
    [
      'a PNG header over garbage',
      async () => picture(Buffer.concat([(await pngOf(400, 400)).subarray(0, 40), Buffer.alloc(500, 7)])),
      400,
      MEDIA_UPLOAD_TYPE_MESSAGE,
    ],
    ['a file over 1024 kB', () => Promise.resolve(picture(Buffer.alloc(MEDIA_UPLOAD_MAX_BYTES + 1, 1))), 413, MEDIA_UPLOAD_TOO_LARGE_MESSAGE],
    [
      'two files',
      async () =>
        multipartBody([
          { file: 'file', filename: 'a.png', type: 'image/png', bytes: await pngOf(10, 10) },
          { file: 'file', filename: 'b.png', type: 'image/png', bytes: await pngOf(10, 10) },
        ]),
      400,
      MEDIA_UPLOAD_ONE_FILE_MESSAGE,
    ],
    ['no file', () => Promise.resolve(multipartBody([{ field: 'name', value: 'x' }])), 400, MEDIA_UPLOAD_ONE_FILE_MESSAGE],
    ['a JSON body', () => Promise.resolve({ json: { file: 'x' } }), 400, MEDIA_UPLOAD_ONE_FILE_MESSAGE],
  ])('refuses %s with its message and stores nothing', async (_name, body, status, message) => {
    const { account, token } = await ownAccount();
    const res = await upload(account.id, token, await body());
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    expect(await filesOf(account.id)).toEqual([]);
    expect(storedFilesOf(account.id)).toEqual([]);
  });

  it('states the limit and the accepted types in its messages', () => {
    expect(MEDIA_UPLOAD_TOO_LARGE_MESSAGE).toContain('1024 kB');
    expect(MEDIA_UPLOAD_TYPE_MESSAGE).toMatch(/JPEG, PNG, GIF or WebP/);
  });

  it('takes exactly 1024 kB', async () => {
    const { account, token } = await ownAccount();
    // A PNG padded to exactly the limit: decoders stop at its end chunk.
    const png = await pngOf(300, 300);
    const padded = Buffer.concat([png, Buffer.alloc(MEDIA_UPLOAD_MAX_BYTES - png.length, 0)]);
    const res = await upload(account.id, token, picture(padded));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a resize out of range', async () => {
    const { account, token } = await ownAccount();
    for (const query of ['?resize=0', '?resize=2001', '?resize=big']) {
      expect((await upload(account.id, token, picture(await pngOf(10, 10)), query)).statusCode).toBe(400);
    }
    expect(await filesOf(account.id)).toEqual([]);
  });

  it.each<[Role, number]>([
    ['Administrator', 201],
    ['CampaignManager', 201],
    ['Sender', 201],
    ['ReadOnly', 403],
  ])('lets %s upload: %i', async (role, status) => {
    const before = (await filesOf(fixtures.accountId)).length;
    const res = await upload(fixtures.accountId, tokens[role], picture(await pngOf(20, 20)));
    expect(res.statusCode, res.body).toBe(status);
    expect((await filesOf(fixtures.accountId)).length).toBe(before + (status === 201 ? 1 : 0));
  });

  it("answers 404 for another account's upload address and 401 without a token", async () => {
    const other = await ownAccount();
    const res = await upload(other.account.id, tokens.Administrator, picture(await pngOf(20, 20)));
    expect(res.statusCode).toBe(404);
    expect(await filesOf(other.account.id)).toEqual([]);
    const body = picture(await pngOf(5, 5));
    const anonymous = await h.app.inject({
      method: 'POST',
      url: `/v1/accounts/${fixtures.accountId}/tools/sharefile`,
      headers: { 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
