import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MEDIA_UPLOAD_MAX_BYTES,
  MEDIA_UPLOAD_ONE_FILE_MESSAGE,
  MEDIA_UPLOAD_TOO_LARGE_MESSAGE,
  MEDIA_UPLOAD_TYPE_MESSAGE,
  type ShareFileContractResponse,
  type SharedFile,
} from '@parley/shared';
import { NAME_THE_ACCOUNT_MESSAGE } from '../../identity/guard.js';
import { mediaFiles } from '../../../platform/db/schema/index.js';
import { multipartBody, pngOf } from '../test/testImages.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-contract-sharefile-'));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/*
 * POST /v1/tools/sharefile: the hosted product's path to the same upload as the account's tools/sharefile
 * (docs/media.md), in the token's account (docs/api.md, "Which account").
 */
describe.each(testDatabaseKinds)("the hosted API's /v1/tools/sharefile on %s", (kind) => {
  const publicUrl = 'https://sms.example.test';
  const { h, fixtures, tokens } = useRouteHarness(kind, { env: { DATA_DIR: dataDir, PUBLIC_URL: publicUrl } });

  type Body = { raw: Buffer } | ReturnType<typeof multipartBody>;
  const post = (url: string, token: string | null, body: Body) =>
    h.app.inject({
      method: 'POST',
      url,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        'content-type': 'raw' in body ? 'application/octet-stream' : body.contentType,
      },
      payload: 'raw' in body ? body.raw : body.payload,
    });
  const share = (token: string | null, body: Body, query = '') => post(`/v1/tools/sharefile${query}`, token, body);
  const filesOf = (accountId: string) => h.database.db.select().from(mediaFiles).where(eq(mediaFiles.accountId, accountId));
  const apiClientOf = (accountId: string) => {
    const clientId = `pk_${randomUUID()}`;
    return h.authenticator.add({ userId: clientId, clientId, accountIds: [accountId] });
  };

  it("stores a raw body or a multipart `media` field in an API client's account and answers the ShareFileResponse", async () => {
    const account = await createAccount(h.database.db);
    const token = apiClientOf(account.id);
    const raw = await share(token, { raw: await pngOf(1200, 600) }, '?resize=500');
    expect(raw.statusCode, raw.body).toBe(200);
    const answer = raw.json<ShareFileContractResponse>();
    expect(answer).toEqual({
      success: true,
      data: {
        id: expect.any(String) as string,
        link: `${publicUrl}/v1/accounts/${account.id}/media/${answer.data.id}`,
        type: 'image/png',
        filename: 'upload.png',
        width: 500,
        height: 250,
        size: expect.any(Number) as number,
      },
    });
    const form = await share(token, multipartBody([{ file: 'media', filename: 'shop.png', type: 'image/png', bytes: await pngOf(40, 40) }]));
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json<ShareFileContractResponse>().data).toMatchObject({ filename: 'shop.png', width: 40 });
    const stored = await filesOf(account.id);
    expect(stored.map((f) => [f.id, f.source, f.createdByUserId]).sort()).toEqual(
      [
        [answer.data.id, 'upload', null],
        [form.json<ShareFileContractResponse>().data.id, 'upload', null],
      ].sort(),
    );
  });

  it("takes a person's only account, asks one in several to name it, and answers 404 for an account not theirs", async () => {
    const person = await createUser(h.database.db);
    const first = await createAccount(h.database.db, { [person.id]: 'Sender' });
    const token = h.tokenFor(person.id);
    const png = async () => ({ raw: await pngOf(20, 20) });
    expect((await share(token, await png())).statusCode).toBe(200);
    expect(await filesOf(first.id)).toHaveLength(1);

    const second = await createAccount(h.database.db, { [person.id]: 'Administrator' });
    const unnamed = await share(token, await png());
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toEqual({ error: { code: 'bad_request', message: NAME_THE_ACCOUNT_MESSAGE } });
    expect((await share(token, await png(), `?accountId=${second.id}`)).statusCode).toBe(200);
    expect(await filesOf(second.id)).toHaveLength(1);

    const stranger = await createAccount(h.database.db);
    for (const query of [`?accountId=${stranger.id}`, '?accountId=not-an-id']) {
      const res = await share(token, await png(), query);
      expect(res.statusCode, query).toBe(404);
    }
    expect(await filesOf(stranger.id)).toEqual([]);
    // An API client's account is its own: another one named is not found.
    expect((await share(apiClientOf(first.id), await png(), `?accountId=${second.id}`)).statusCode).toBe(404);
  });

  it('keeps the upload permission: Read Only is refused (403) and no token is 401', async () => {
    const before = (await filesOf(fixtures.accountId)).length;
    const readOnly = await share(tokens.ReadOnly, { raw: await pngOf(20, 20) }, `?accountId=${fixtures.accountId}`);
    expect(readOnly.statusCode).toBe(403);
    expect((await share(null, { raw: await pngOf(20, 20) })).statusCode).toBe(401);
    expect((await share(tokens.Sender, { raw: await pngOf(20, 20) }, `?accountId=${fixtures.accountId}`)).statusCode).toBe(200);
    expect((await filesOf(fixtures.accountId)).length).toBe(before + 1);
  });

  it('keeps the limits: 1024 kB, pictures only, one file, and stores nothing refused', async () => {
    const account = await createAccount(h.database.db);
    const token = apiClientOf(account.id);
    const png = await pngOf(300, 300);
    const cases: [Body, number, string][] = [
      [{ raw: Buffer.alloc(MEDIA_UPLOAD_MAX_BYTES + 1, 1) }, 413, MEDIA_UPLOAD_TOO_LARGE_MESSAGE],
      [{ raw: Buffer.from('hello, not a picture') }, 400, MEDIA_UPLOAD_TYPE_MESSAGE],
      [{ raw: Buffer.alloc(0) }, 400, MEDIA_UPLOAD_ONE_FILE_MESSAGE],
      [multipartBody([{ field: 'name', value: 'x' }]), 400, MEDIA_UPLOAD_ONE_FILE_MESSAGE],
    ];
    for (const [body, status, message] of cases) {
      const res = await share(token, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    expect(await filesOf(account.id)).toEqual([]);
    // Exactly the limit is taken, as on the account's route.
    const padded = Buffer.concat([png, Buffer.alloc(MEDIA_UPLOAD_MAX_BYTES - png.length, 0)]);
    expect((await share(token, { raw: padded })).statusCode).toBe(200);
  });

  it("lets the account's own route take a raw body too: one command behind both", async () => {
    const account = await createAccount(h.database.db);
    const res = await post(`/v1/accounts/${account.id}/tools/sharefile`, apiClientOf(account.id), { raw: await pngOf(30, 30) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ data: SharedFile }>().data).toMatchObject({ type: 'image/png', width: 30, filename: 'upload.png' });
  });
});
