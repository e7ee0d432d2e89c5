import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_NOT_FOUND_MESSAGE, conversationScreenshotQuerySchema, SCREENSHOT_MESSAGES, type SharedFile } from '@parley/shared';
import { addConversation, addGroup, addMember, addMessage } from '../../../test/conversations.js';
import { testConfig } from '../../../test/config.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { sendingAccount } from '../../../test/sendingFixtures.js';
import { createMediaServices } from '../../media/index.js';
import { WHOLE_ACCOUNT } from '../../messaging/index.js';
import { conversationScreenshotModel, PICTURE_PLACEHOLDER, SCREENSHOT_MESSAGE_NOT_FOUND } from '../conversationScreenshot.js';
import { pngSize } from '../test/pngPixels.js';

type Res = LightMyRequestResponse;
const errorOf = (res: Res) => res.json<{ error: { code: string; message: string } }>().error;
const sizeOf = (res: Res) => pngSize(res.rawPayload);

/** A query of sample messages: [text, outgoing, picture id?] each. */
function samples(name: string, messages: readonly (readonly [string, boolean, string?])[], extra = ''): string {
  const params = new URLSearchParams({ name });
  for (const [text, outgoing, picture] of messages) {
    params.append('messages', text);
    params.append('outgoing', String(outgoing));
    if (messages.some((m) => m[2] !== undefined)) params.append('pictures', picture ?? '');
  }
  return `${params.toString()}${extra}`;
}

describe.each(testDatabaseKinds)('screenshots on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);
  const tool = (acc: string, query: string) => `/v1/accounts/${acc}/tools/screenshots/ios?${query}`;

  /** A picture uploaded to the account as the web app does (tools/sharefile, resized to 500). */
  async function upload(accountId: string, token: string): Promise<SharedFile> {
    const bytes = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/accounts/${accountId}/tools/sharefile?resize=500`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: SharedFile }>().data;
  }

  it('answers a PNG of the sample messages at 1x and 2x, private to the caller, to every role', async () => {
    const query = samples('Ada Lovelace', [
      ['Is my order ready? 😀', false],
      ['Yes, see you soon!', true],
    ]);
    const res = await h.call('GET', tool(fixtures.accountId, query), tokens.ReadOnly);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private');
    expect(sizeOf(res)).toEqual({ width: 390, height: 844 });
    const double = await h.call('GET', tool(fixtures.accountId, `${query}&scale=2&time=14:05`), tokens.Sender);
    expect(sizeOf(double)).toEqual({ width: 780, height: 1688 });
  });

  it('refuses more than 5 messages, an empty message, a missing or too long name, and bad flags, with clear messages', async () => {
    const acc = fixtures.accountId;
    const six = await h.call('GET', tool(acc, samples('Ada', Array.from({ length: 6 }, (_, i) => [`Message ${String(i)}`, i % 2 === 0] as const))), tokens.Administrator);
    expect(six.statusCode).toBe(400);
    expect(errorOf(six).message).toBe(`messages: ${SCREENSHOT_MESSAGES.tooMany}`);
    const empty = await h.call('GET', tool(acc, samples('Ada', [['Hi', true], ['  ', false]])), tokens.Administrator);
    expect(errorOf(empty).message).toBe(`messages.1: ${SCREENSHOT_MESSAGES.empty}`);
    const unnamed = await h.call('GET', tool(acc, samples(' ', [['Hi', true]])), tokens.Administrator);
    expect(errorOf(unnamed).message).toBe('name: Required');
    const long = await h.call('GET', tool(acc, samples('A'.repeat(41), [['Hi', true]])), tokens.Administrator);
    expect(errorOf(long).message).toBe(`name: ${SCREENSHOT_MESSAGES.nameTooLong}`);
    const flags = await h.call('GET', tool(acc, 'name=Ada&messages=Hi&messages=Hello&outgoing=true'), tokens.Administrator);
    expect(errorOf(flags).message).toBe(`outgoing: ${SCREENSHOT_MESSAGES.flags}`);
    const time = await h.call('GET', tool(acc, `${samples('Ada', [['Hi', true]])}&time=25:00`), tokens.Administrator);
    expect(errorOf(time).message).toBe(`time: ${SCREENSHOT_MESSAGES.time}`);
  });

  it("draws the account's uploaded pictures, and never another account's", async () => {
    const { account, token } = await ownAccount();
    const picture = await upload(account.id, token);
    const res = await h.call('GET', tool(account.id, samples('Ada', [['', true, picture.id], ['Nice!', false]])), token);
    expect(res.statusCode, res.body).toBe(200);
    const foreign = await h.call('GET', tool(fixtures.accountId, samples('Ada', [['Look', true, picture.id]])), tokens.Administrator);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).message).toBe('The picture was not found.');
  });

  it("answers the hosted product's path in the token's account, and 401 without a token", async () => {
    const { token } = await ownAccount();
    const query = samples('Ada', [['Hi', true]]);
    const res = await h.call('GET', `/v1/tools/screenshots/ios?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(sizeOf(res).width).toBe(390);
    for (const url of [`/v1/tools/screenshots/ios?${query}`, tool(fixtures.accountId, query)]) {
      const anonymous = await h.call('GET', url);
      expect(anonymous.statusCode).toBe(401);
    }
  });

  describe('of a conversation', () => {
    async function conversationWithMessages() {
      const account = await sendingAccount(h.database.db);
      const conversation = await addConversation(h.database.db, account, { firstName: 'Grace', lastName: 'Hopper' });
      const start = Date.now() - 60_000;
      const texts = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth'];
      const rows = [];
      for (const [i, body] of texts.entries()) {
        rows.push(await addMessage(h.database.db, account, conversation, { body, direction: i % 2 === 0 ? 'inbound' : 'outbound', createdAt: new Date(start + i * 1000) }));
      }
      return { account, conversation, rows, token: h.tokenFor(account.adminId) };
    }
    const shotUrl = (acc: string, id: string, query = '') => `/v1/accounts/${acc}/conversations/${id}/screenshot${query}`;
    const deps = () => ({ db: h.database.db, media: createMediaServices(testConfig()) });
    const query = (raw: Record<string, string | string[]>) => conversationScreenshotQuerySchema.parse(raw);

    it('shows the last messages oldest first, or the ones chosen, as a PNG', async () => {
      const { account, conversation, rows, token } = await conversationWithMessages();
      const res = await h.call('GET', shotUrl(account.accountId, conversation.id, '?count=3&scale=2'), token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(sizeOf(res).width).toBe(780);

      const last = await conversationScreenshotModel(deps(), account.accountId, WHOLE_ACCOUNT, conversation.id, query({ count: '3' }));
      expect(last?.messages.map((m) => [m.text, m.outgoing])).toEqual([['Fourth', true], ['Fifth', false], ['Sixth', true]]);
      expect(last).toMatchObject({ name: 'Grace Hopper', initials: 'GH', stamp: expect.stringMatching(/^Today /) as string });
      const chosen = await conversationScreenshotModel(deps(), account.accountId, WHOLE_ACCOUNT, conversation.id, query({ messageIds: [rows[4]?.id ?? '', rows[0]?.id ?? ''] }));
      expect(chosen?.messages.map((m) => m.text)).toEqual(['First', 'Fifth']);
    });

    it('masked, holds neither the name nor the number: initials and the last 4 digits', async () => {
      const { account, conversation, token } = await conversationWithMessages();
      const model = await conversationScreenshotModel(deps(), account.accountId, WHOLE_ACCOUNT, conversation.id, query({ mask: 'true' }));
      const shown = JSON.stringify(model);
      expect(model?.name).toBe(`•••• ${conversation.mobile.slice(-4)}`);
      expect(model?.initials).toBe('GH');
      for (const secret of ['Grace', 'Hopper', conversation.mobile, conversation.mobile.slice(1, -4)]) expect(shown).not.toContain(secret);
      const res = await h.call('GET', shotUrl(account.accountId, conversation.id, '?mask=true'), token);
      expect(res.statusCode, res.body).toBe(200);
    });

    it("draws the account's stored pictures and a placeholder for media it cannot draw", async () => {
      const { account, conversation, token } = await conversationWithMessages();
      const picture = await upload(account.accountId, token);
      await addMessage(h.database.db, account, conversation, { body: 'Here', direction: 'outbound', media: [{ url: picture.link, type: 'image/png', filename: 'a.png' }] });
      await addMessage(h.database.db, account, conversation, { body: '', media: [{ url: 'http://169.254.169.254/latest/meta-data', type: 'image/png', filename: '' }] });
      const model = await conversationScreenshotModel(deps(), account.accountId, WHOLE_ACCOUNT, conversation.id, query({ count: '2' }));
      expect(model?.messages.map((m) => [m.text, m.picture === null ? null : [m.picture.width, m.picture.height]])).toEqual([
        ['Here', [500, 375]],
        [PICTURE_PLACEHOLDER, null],
      ]);
    });

    it("answers 404 for another account's conversation, a hidden group's, or a message of another conversation", async () => {
      const { account, conversation, rows, token } = await conversationWithMessages();
      const other = await conversationWithMessages();
      const foreign = await h.call('GET', shotUrl(account.accountId, other.conversation.id), token);
      expect(foreign.statusCode).toBe(404);
      expect(errorOf(foreign).message).toBe(CONVERSATION_NOT_FOUND_MESSAGE);
      expect((await h.call('GET', shotUrl(other.account.accountId, other.conversation.id), token)).statusCode).toBe(404);
      const mixed = await h.call('GET', shotUrl(account.accountId, conversation.id, `?messageIds=${other.rows[0]?.id ?? ''}`), token);
      expect(mixed.statusCode).toBe(404);
      expect(errorOf(mixed).message).toBe(SCREENSHOT_MESSAGE_NOT_FOUND);

      const sender = await addMember(h.database.db, account.accountId, 'Sender');
      const grouped = await addConversation(h.database.db, account, { groupId: await addGroup(h.database.db, account.accountId) });
      expect((await h.call('GET', shotUrl(account.accountId, grouped.id), h.tokenFor(sender))).statusCode).toBe(404);
      expect((await h.call('GET', shotUrl(account.accountId, conversation.id, `?messageIds=${rows[0]?.id ?? ''}`), h.tokenFor(sender))).statusCode).toBe(200);
      expect((await h.call('GET', shotUrl(account.accountId, conversation.id))).statusCode).toBe(401);
      const tooMany = await h.call('GET', shotUrl(account.accountId, conversation.id, '?count=6'), token);
      expect(errorOf(tooMany).message).toBe(`count: ${SCREENSHOT_MESSAGES.tooMany}`);
    });
  });
});
