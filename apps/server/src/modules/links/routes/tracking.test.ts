import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Link } from '@parley/shared';
import { accounts, linkRecipients, links, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, sendingAccount } from '../../../test/sendingFixtures.js';
import { sendMessages } from '../../messaging/index.js';
import { existingLinksRuntime } from '../linksRuntime.js';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IMESSAGE = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0';

describe.each(testDatabaseKinds)('per-contact click tracking on %s', (kind) => {
  const { h } = useRouteHarness(kind, { env: { PUBLIC_URL: 'https://hub.example.test', SHORT_LINK_DOMAIN: 'sho.rt.test' } });

  const open = (path: string, agent = PHONE) => h.app.inject({ method: 'GET', url: path, headers: { host: 'sho.rt.test', 'user-agent': agent } });
  const flush = async () => {
    await existingLinksRuntime(h.database)?.clicks.flush();
  };

  async function accountWithLink(contactTracking: boolean) {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const shared = (await h.call('GET', `/v1/accounts/${account.accountId}/domains?shared=1`, token)).json<{ data: { id: string }[] }>().data[0]?.id;
    const res = await h.call('POST', `/v1/accounts/${account.accountId}/links`, token, {
      name: 'Sale',
      destinationUrl: 'https://shop.example.test/sale',
      domain: { id: shared },
      contactTracking,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { account, token, link: res.json<{ data: Link }>().data };
  }

  const codesOf = (linkId: string) =>
    h.database.db.select().from(linkRecipients).where(eq(linkRecipients.linkId, linkId)).orderBy(asc(linkRecipients.createdAt), asc(linkRecipients.id));

  it('gives each recipient its own code of the same length, ties clicks to contact and message, and lists them in the CSV', async () => {
    const { account, token, link } = await accountWithLink(true);
    const ada = await addContact(h.database.db, account.accountId, { firstName: 'Ada', lastName: 'Lovelace' });
    const bob = await addContact(h.database.db, account.accountId, { firstName: 'Bob', lastName: 'Brown' });
    const template = `Sale today: ${link.shortenedUrl} see you`;
    const sent = await sendMessages(h.database.db, {
      accountId: account.accountId,
      actor: { kind: 'user', userId: account.adminId },
      contactIds: [ada.id, bob.id],
      template,
    });
    expect(sent.messages).toHaveLength(2);

    const codes = await codesOf(link.id);
    expect(codes).toHaveLength(2);
    const [adaCode, bobCode] = [ada, bob].map((c) => codes.find((r) => r.contactId === c.id));
    if (!adaCode || !bobCode) throw new Error('a recipient without a code');
    expect(adaCode.code).not.toBe(bobCode.code);
    expect(adaCode.code).toHaveLength(link.code.length);
    for (const message of sent.messages) {
      const own = codes.find((r) => r.messageId === message.id);
      expect(own?.contactId).toBe(message.contactId);
      expect(message.body).toBe(`Sale today: https://sho.rt.test/${own?.code ?? ''} see you`);
      // Same length as the text the editor counted: segments and price as estimated.
      expect(message.body).toHaveLength(template.length);
      expect(message.segments).toBe(1);
    }

    // Ada opens her link twice; a preview fetcher opens it first. Bob never does.
    const preview = await open(`/${adaCode.code}`, IMESSAGE);
    expect(preview.statusCode).toBe(302);
    const first = await open(`/${adaCode.code}`);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('https://shop.example.test/sale');
    expect((await h.app.inject({ method: 'GET', url: `/r/${adaCode.code}`, headers: { host: 'hub.example.test', 'user-agent': PHONE } })).statusCode).toBe(302);

    // Nothing written on the request path; the batch writes the contact's and the link's counts.
    expect((await codesOf(link.id)).every((r) => r.clicks === 0)).toBe(true);
    await flush();
    const after = await codesOf(link.id);
    expect(after.find((r) => r.id === adaCode.id)).toMatchObject({ clicks: 2, botClicks: 1 });
    expect(after.find((r) => r.id === adaCode.id)?.firstClickAt).toBeInstanceOf(Date);
    expect(after.find((r) => r.id === bobCode.id)).toMatchObject({ clicks: 0, botClicks: 0, firstClickAt: null });
    const [counted] = await h.database.db.select({ clicks: links.clicks, botClicks: links.botClicks }).from(links).where(eq(links.id, link.id));
    expect(counted).toEqual({ clicks: 2, botClicks: 1 });

    const csv = await h.call('GET', `/v1/accounts/${account.accountId}/links/${link.id}/tracking`, token);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('contact,number,message,first click,clicks');
    const adaLine = lines.find((l) => l.startsWith('Ada Lovelace,'));
    const bobLine = lines.find((l) => l.startsWith('Bob Brown,'));
    expect(adaLine).toMatch(new RegExp(`^Ada Lovelace,'\\${ada.mobileNumber},Sale today: https://sho.rt.test/${adaCode.code} see you,\\d{4}-\\d\\d-\\d\\dT[^,]+Z,2$`));
    expect(bobLine).toBe(`Bob Brown,'${bob.mobileNumber},Sale today: https://sho.rt.test/${bobCode.code} see you,,0`);
  });

  it('leaves untracked links, other accounts\' links and plain text as they are', async () => {
    const { account, link } = await accountWithLink(false);
    const other = await accountWithLink(true);
    const contact = await addContact(h.database.db, account.accountId);
    const template = `A ${link.shortenedUrl} B ${other.link.shortenedUrl} C https://example.test/abcdefg`;
    const sent = await sendMessages(h.database.db, { accountId: account.accountId, actor: { kind: 'system' }, contactIds: [contact.id], template });
    expect(sent.messages[0]?.body).toBe(template);
    expect(await codesOf(link.id)).toEqual([]);
    expect(await codesOf(other.link.id)).toEqual([]);
  });

  it('makes the codes of a campaign-sized send in bulk, one per recipient, all distinct', async () => {
    const { account, link } = await accountWithLink(true);
    const recipients = [];
    for (let i = 0; i < 60; i += 1) recipients.push(await addContact(h.database.db, account.accountId));
    const sent = await sendMessages(h.database.db, {
      accountId: account.accountId,
      actor: { kind: 'system' },
      contactIds: recipients.map((c) => c.id),
      template: `Hi {{{firstName}}} ${link.shortenedUrl} and again ${link.shortenedUrl}`,
      jobId: null,
      whenNoneSendable: 'return',
    });
    expect(sent.messages).toHaveLength(60);
    const codes = await codesOf(link.id);
    expect(codes).toHaveLength(60);
    expect(new Set(codes.map((c) => c.code)).size).toBe(60);
    expect(new Set(codes.map((c) => c.contactId)).size).toBe(60);
    // The same link twice in one message: one code for that recipient, in both places.
    const stored = await h.database.db.select({ id: messages.id, body: messages.body }).from(messages).where(eq(messages.accountId, account.accountId));
    for (const row of stored) {
      const own = codes.find((c) => c.messageId === row.id)?.code ?? 'missing';
      expect(row.body.split(own)).toHaveLength(3);
    }
  });

  it('refuses the CSV of another account\'s link and of an unknown one', async () => {
    const { link } = await accountWithLink(true);
    const stranger = await accountWithLink(true);
    const res = await h.call('GET', `/v1/accounts/${stranger.account.accountId}/links/${link.id}/tracking`, stranger.token);
    expect(res.statusCode).toBe(404);
    expect((await h.call('GET', `/v1/accounts/${stranger.account.accountId}/links/nope/tracking`, stranger.token)).statusCode).toBe(404);
    expect((await h.call('GET', `/v1/accounts/${stranger.account.accountId}/links/${stranger.link.id}/tracking`)).statusCode).toBe(401);
  });

  it('turns contact tracking on for the account with a tracked link, and off for every link when the account turns it off', async () => {
    const { account, token, link } = await accountWithLink(true);
    const optionsOf = async () => (await h.database.db.select({ options: accounts.options }).from(accounts).where(eq(accounts.id, account.accountId)))[0]?.options;
    await expect(optionsOf()).resolves.toMatchObject({ contactTracking: true });
    const off = await h.call('PUT', `/v1/accounts/${account.accountId}/options`, token, { contactTracking: false });
    expect(off.statusCode, off.body).toBe(200);
    const read = await h.call('GET', `/v1/accounts/${account.accountId}/links/${link.id}`, token);
    expect(read.json()).toMatchObject({ data: { contactTracking: false } });
    // Turning the option on again does not turn links on by itself.
    await h.call('PUT', `/v1/accounts/${account.accountId}/options`, token, { contactTracking: true });
    expect((await h.call('GET', `/v1/accounts/${account.accountId}/links/${link.id}`, token)).json()).toMatchObject({ data: { contactTracking: false } });
  });
});
