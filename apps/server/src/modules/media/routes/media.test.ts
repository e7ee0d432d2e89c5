import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEDIA_LINK_EXPIRED_MESSAGE, MEDIA_LINK_INVALID_MESSAGE, roles, type SharedFile } from '@parley/shared';
import { createMediaServices } from '../services.js';
import { multipartBody, pngOf } from '../test/testImages.js';
import { testConfig } from '../../../test/config.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-media-routes-'));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(testDatabaseKinds)('media files on %s', (kind) => {
  const publicUrl = 'https://sms.example.test';
  const env = { DATA_DIR: dataDir, PUBLIC_URL: publicUrl };
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env });
  // The same config as the app's: the same key file, so the same signatures.
  const media = createMediaServices(testConfig(env));

  async function uploaded(acc: string, token: string): Promise<SharedFile> {
    const body = multipartBody([{ file: 'file', filename: 'photo of us.png', type: 'image/png', bytes: await pngOf(40, 30) }]);
    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/accounts/${acc}/tools/sharefile?resize=500`,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: SharedFile }>().data;
  }

  const pathOf = (link: string) => link.slice(publicUrl.length);

  it('serves an account file to every role of the account, privately cached', async () => {
    const file = await uploaded(fixtures.accountId, tokens.Sender);
    for (const role of roles) {
      const res = await h.call('GET', pathOf(file.link), tokens[role]);
      expect(res.statusCode, role).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toMatch(/^private\b/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe("inline; filename*=UTF-8''photo%20of%20us.png");
      expect(res.rawPayload.length).toBe(file.size);
    }
  });

  it("answers 404 for another account's file, for an unknown id and without membership", async () => {
    const file = await uploaded(fixtures.accountId, tokens.Administrator);
    const other = await ownAccount();
    // Another account's user, through their own account and through ours.
    expect((await h.call('GET', `/v1/accounts/${other.account.id}/media/${file.id}`, other.token)).statusCode).toBe(404);
    expect((await h.call('GET', pathOf(file.link), other.token)).statusCode).toBe(404);
    expect((await h.call('GET', `/v1/accounts/${fixtures.accountId}/media/not-a-uuid`, tokens.Administrator)).statusCode).toBe(404);
    expect((await h.call('GET', `/v1/accounts/${fixtures.accountId}/media/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b`, tokens.Administrator)).statusCode).toBe(404);
    expect((await h.call('GET', pathOf(file.link))).statusCode).toBe(401);
  });

  it('serves a file by a signed URL without a token, until it expires', async () => {
    const file = await uploaded(fixtures.accountId, tokens.Administrator);
    const signer = await media.signer(true);
    if (signer === null) throw new Error('the embedded key file should give a signer');
    const signed = signer.signedUrl(file.id);
    expect(signed).toMatch(new RegExp(`^${publicUrl}/v1/media/${file.id}\\?expires=\\d+&signature=[\\w-]+$`));
    const res = await h.call('GET', pathOf(signed));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.length).toBe(file.size);

    const expired = signer.signedUrl(file.id, new Date(Date.now() - 2 * 3600_000));
    const late = await h.call('GET', pathOf(expired));
    expect(late.statusCode).toBe(403);
    expect(late.json<{ error: { message: string } }>().error.message).toBe(MEDIA_LINK_EXPIRED_MESSAGE);
  });

  it('refuses a changed or missing signature', async () => {
    const file = await uploaded(fixtures.accountId, tokens.Administrator);
    const another = await uploaded(fixtures.accountId, tokens.Administrator);
    const signer = await media.signer(true);
    if (signer === null) throw new Error('the embedded key file should give a signer');
    const url = new URL(signer.signedUrl(file.id));
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const tries = [
      `/v1/media/${file.id}?expires=${expires}&signature=${flipped}`,
      `/v1/media/${file.id}?expires=${String(Number(expires) + 3600)}&signature=${signature}`,
      `/v1/media/${another.id}?expires=${expires}&signature=${signature}`,
      `/v1/media/${file.id}?expires=${expires}`,
      `/v1/media/${file.id}?signature=${signature}`,
      `/v1/media/${file.id}?expires=soon&signature=${signature}`,
      `/v1/media/${file.id}`,
    ];
    for (const attempt of tries) {
      const res = await h.call('GET', attempt);
      expect(res.statusCode, attempt).toBe(403);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(MEDIA_LINK_INVALID_MESSAGE);
    }
    // A good signature of a file that is gone.
    const gone = signer.signedUrl('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
    expect((await h.call('GET', pathOf(gone))).statusCode).toBe(404);
  });
});
