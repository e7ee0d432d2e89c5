import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendMessageResult, SharedFile } from '@parley/shared';
import { sendMessages } from '../messageSender.js';
import { campaigns, templates } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { multipartBody, pngOf } from '../../media/test/testImages.js';
import { campaignBody } from '../../../test/campaigns.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, balanceOf, messagingCounts, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-send-media-'));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const NOT_FOUND = { error: { code: 'not_found', message: 'The media file was not found.' } };

describe.each(testDatabaseKinds)("a send's media belongs to the sending account, on %s", (kind) => {
  const publicUrl = 'https://sms.example.test';
  const { h } = useRouteHarness(kind, { env: { DATA_DIR: dataDir, PUBLIC_URL: publicUrl } });
  let mine: SendingAccount;
  let theirs: SendingAccount;
  let myToken = '';
  let myFile: SharedFile;
  let theirFile: SharedFile;

  async function upload(account: SendingAccount, token: string): Promise<SharedFile> {
    const body = multipartBody([{ file: 'file', filename: 'picture.png', type: 'image/png', bytes: await pngOf(40, 30) }]);
    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/accounts/${account.accountId}/tools/sharefile`,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: SharedFile }>().data;
  }

  beforeAll(async () => {
    mine = await sendingAccount(h.database.db);
    theirs = await sendingAccount(h.database.db);
    myToken = h.tokenFor(mine.adminId);
    myFile = await upload(mine, myToken);
    theirFile = await upload(theirs, h.tokenFor(theirs.adminId));
  });

  /** Media that is not the sending account's: its file under its own address, forged under ours, or made up. */
  const foreignMedia = (): string[] => [
    theirFile.link,
    `${publicUrl}/v1/accounts/${mine.accountId}/media/${theirFile.id}`,
    `${publicUrl}/v1/accounts/${mine.accountId}/media/${randomUUID()}`,
    `${publicUrl}/v1/accounts/${theirs.accountId.toUpperCase()}/media/${theirFile.id.toUpperCase()}`,
    // Under another name of this deployment (PUBLIC_URL changed, or another host of the proxy).
    `http://localhost:3000/v1/accounts/${theirs.accountId}/media/${theirFile.id}`,
  ];
  const item = (url: string) => ({ url, type: 'image/png', filename: 'picture.png' });

  it("refuses (404) a message with another account's media, writing and charging nothing", async () => {
    const contact = await addContact(h.database.db, mine.accountId);
    const counts = await messagingCounts(h.database.db, mine.accountId);
    const balance = await balanceOf(h.database.db, mine.accountId);
    for (const url of foreignMedia()) {
      const res = await h.call('POST', `/v1/accounts/${mine.accountId}/messages`, myToken, {
        contacts: [contact.id],
        template: 'Look at this',
        media: [item(myFile.link), item(url)],
      });
      expect({ url, status: res.statusCode, body: res.json<unknown>() }).toEqual({ url, status: 404, body: NOT_FOUND });
    }
    expect(await messagingCounts(h.database.db, mine.accountId)).toEqual(counts);
    expect(await balanceOf(h.database.db, mine.accountId)).toBe(balance);
  });

  it('sends its own media, and a picture from elsewhere on the web', async () => {
    const contact = await addContact(h.database.db, mine.accountId);
    const media = [item(myFile.link), item('https://cdn.example.com/v1/cat.png')];
    const res = await h.call('POST', `/v1/accounts/${mine.accountId}/messages`, myToken, { contacts: [contact.id], template: '', media });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SendMessageResult>().data.messages[0]?.media).toEqual(media);
  });

  it("refuses (404) a template or a campaign with another account's media, keeping nothing", async () => {
    for (const url of foreignMedia()) {
      const template = await h.call('POST', `/v1/accounts/${mine.accountId}/templates`, myToken, { name: `T ${randomUUID()}`, type: 'SMS', template: 'Hi', media: [item(url)] });
      expect({ url, status: template.statusCode, body: template.json<unknown>() }).toEqual({ url, status: 404, body: NOT_FOUND });
      const campaign = await h.call('POST', `/v1/accounts/${mine.accountId}/campaigns`, myToken, campaignBody(mine.numberId, { media: [item(url)] }));
      expect({ url, status: campaign.statusCode, body: campaign.json<unknown>() }).toEqual({ url, status: 404, body: NOT_FOUND });
    }
    expect(await h.database.db.select().from(templates).where(eq(templates.accountId, mine.accountId))).toEqual([]);
    expect(await h.database.db.select().from(campaigns).where(eq(campaigns.accountId, mine.accountId))).toEqual([]);

    const own = await h.call('POST', `/v1/accounts/${mine.accountId}/templates`, myToken, { name: 'Own', type: 'SMS', template: 'Hi', media: [item(myFile.link)] });
    expect(own.statusCode, own.body).toBe(201);
    const ownCampaign = await h.call('POST', `/v1/accounts/${mine.accountId}/campaigns`, myToken, campaignBody(mine.numberId, { media: [item(myFile.link)] }));
    expect(ownCampaign.statusCode, ownCampaign.body).toBe(201);
  });

  it('refuses it on every send path: the message sender itself checks (campaigns, web-hook templates, auto sends)', async () => {
    const contact = await addContact(h.database.db, mine.accountId);
    const counts = await messagingCounts(h.database.db, mine.accountId);
    for (const url of foreignMedia()) {
      const refused = sendMessages(h.database.db, { accountId: mine.accountId, actor: { kind: 'system' }, contactIds: [contact.id], template: 'Hi', media: [item(url)] });
      await expect(refused).rejects.toThrow(AppError);
      await expect(refused).rejects.toMatchObject({ statusCode: 404, code: 'not_found' });
    }
    expect(await messagingCounts(h.database.db, mine.accountId)).toEqual(counts);
  });
});
