import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTO_LINK_DOMAIN_MESSAGE, countSegments, TRIAL_EXPIRED_MESSAGE, type Account, type Link, type ShortenedText } from '@parley/shared';
import { accounts, linkDomains, links, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { ensureTestPlan } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';

const DAY = 24 * 60 * 60 * 1000;
const LONG_URL = 'https://shop.example.test/spring/collection/sale?utm_source=sms&utm_campaign=spring-2026';
// 150 characters of text around the URL: one segment shortened, two as typed.
const TEXT = `Spring sale: ${LONG_URL} ends Sunday. ${'Come and see. '.repeat(6)}`;

describe.each(testDatabaseKinds)('auto link shortening on %s', (kind) => {
  const { h, tokens, fixtures } = useRouteHarness(kind, { env: { PUBLIC_URL: 'https://hub.example.test' } });

  let a: SendingAccount;
  let token: string;
  let sharedId: string;
  beforeAll(async () => {
    a = await sendingAccount(h.database.db);
    token = h.tokenFor(a.adminId);
    const domains = await h.call('GET', `/v1/accounts/${a.accountId}/domains?shared=1`, token);
    sharedId = domains.json<{ data: { id: string }[] }>().data[0]?.id ?? '';
  });

  const setOption = (acc: string, who: string, autoLinkShorten: string | null) => h.call('PUT', `/v1/accounts/${acc}/options`, who, { autoLinkShorten });
  const preview = async (text: string): Promise<ShortenedText> => {
    const res = await h.call('POST', `/v1/accounts/${a.accountId}/links/shorten`, token, { text });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: ShortenedText }>().data;
  };
  const accountLinks = () => h.database.db.select().from(links).where(eq(links.accountId, a.accountId));
  const addDomain = async (acc: string, verified: boolean): Promise<string> => {
    const id = uuidv7();
    const renewAt = verified ? new Date(Date.now() + DAY) : null;
    await h.database.db.insert(linkDomains).values({ id, accountId: acc, domain: `go-${id.slice(-8)}.example.test`, renewAt, createdAt: new Date() });
    return id;
  };

  it('takes the short domain or a verified custom domain of the account, and null for off; refuses others', async () => {
    const on = await setOption(a.accountId, token, sharedId);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<{ data: Account }>().data.options.autoLinkShorten).toBe(sharedId);

    const verified = await addDomain(a.accountId, true);
    expect((await setOption(a.accountId, token, verified)).json<{ data: Account }>().data.options.autoLinkShorten).toBe(verified);
    const unverified = await addDomain(a.accountId, false);
    const theirs = await addDomain(fixtures.accountId, true);
    for (const bad of [unverified, theirs, randomUUID(), 'short']) {
      const res = await setOption(a.accountId, token, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'validation_failed', message: `autoLinkShorten: ${AUTO_LINK_DOMAIN_MESSAGE}` } });
    }
    const off = await setOption(a.accountId, token, null);
    expect(off.json<{ data: Account }>().data.options.autoLinkShorten).toBeNull();
    // Only the administrator sets it.
    expect((await setOption(fixtures.accountId, tokens.Sender, sharedId)).statusCode).toBe(403);
  });

  it('previews the text as it would be sent, making no link; off, the text stays', async () => {
    await setOption(a.accountId, token, null);
    expect(await preview(TEXT)).toEqual({ text: TEXT, shortened: 0 });
    await setOption(a.accountId, token, sharedId);
    const before = (await accountLinks()).length;
    const seen = await preview('Look: https://cafe.example.test/menu. Or (https://cafe.example.test/menu)!');
    expect(seen).toEqual({ text: 'Look: https://hub.example.test/r/xxxxxxx. Or (https://hub.example.test/r/xxxxxxx)!', shortened: 2 });
    expect(await accountLinks()).toHaveLength(before);
    // A URL running into a token differs per recipient: it stays.
    expect(await preview('https://cafe.example.test/?m={{{mobile}}}')).toMatchObject({ shortened: 0 });
  });

  it('previews for every role of the account, refuses bad input and answers 404 for another account', async () => {
    const shorten = (acc: string, who: string, body: object) => h.call('POST', `/v1/accounts/${acc}/links/shorten`, who, body);
    for (const role of ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const) {
      const res = await shorten(fixtures.accountId, tokens[role], { text: 'no links here' });
      expect(res.statusCode, role).toBe(200);
      expect(res.json<{ data: ShortenedText }>().data).toEqual({ text: 'no links here', shortened: 0 });
    }
    for (const body of [{}, { text: 42 }, { text: 'x'.repeat(5_000) }]) {
      expect((await shorten(a.accountId, token, body)).statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await shorten(a.accountId, tokens.Administrator, { text: TEXT })).statusCode).toBe(404);
  });

  it('sends the short URL, counted and priced as sent; the link is listed and reused; short URLs stay', async () => {
    await setOption(a.accountId, token, sharedId);
    const contact = await addContact(h.database.db, a.accountId);
    const res = await h.call('POST', `/v1/accounts/${a.accountId}/messages`, token, { contacts: [contact.id], template: TEXT });
    expect(res.statusCode, res.body).toBe(200);
    const made = (await accountLinks()).filter((l) => l.destinationUrl === LONG_URL);
    expect(made).toHaveLength(1);
    const link = made[0];
    if (link === undefined) throw new Error('no link');
    const short = `https://hub.example.test/r/${link.code}`;
    const sentText = TEXT.replace(LONG_URL, short);
    const [row] = await h.database.db.select().from(messages).where(eq(messages.contactId, contact.id));
    expect(countSegments(TEXT).segments).toBe(2);
    expect(row).toMatchObject({ body: sentText, segments: 1, price: '0.0100' });

    // Listed like any link, named after the destination's host and path.
    const listed = await h.call('GET', `/v1/accounts/${a.accountId}/links?limit=100`, token);
    expect(listed.json<{ data: Link[] }>().data).toContainEqual(
      expect.objectContaining({ name: 'shop.example.test/spring/collection/sale', destinationUrl: LONG_URL, shortenedUrl: short }),
    );
    // The preview now shows the real code; a second send reuses the link; a short URL is left as it is.
    expect(await preview(TEXT)).toEqual({ text: sentText, shortened: 1 });
    expect(await preview(sentText)).toEqual({ text: sentText, shortened: 0 });
    const again = await h.call('POST', `/v1/accounts/${a.accountId}/messages`, token, { contacts: [contact.id], template: `${TEXT} ${short}` });
    expect(again.statusCode, again.body).toBe(200);
    expect((await accountLinks()).filter((l) => l.destinationUrl === LONG_URL || l.destinationUrl === short)).toHaveLength(1);
  });

  it('puts links on the chosen verified custom domain', async () => {
    const domainId = await addDomain(a.accountId, true);
    await setOption(a.accountId, token, domainId);
    const [domain] = await h.database.db.select().from(linkDomains).where(eq(linkDomains.id, domainId));
    const seen = await preview('Menu: https://cafe.example.test/custom');
    expect(seen.text).toBe(`Menu: https://${domain?.domain ?? ''}/xxxxxxx`);
  });

  it('refuses to add a link once the trial has run out (402 trial_expired)', async () => {
    const b = await sendingAccount(h.database.db);
    const bToken = h.tokenFor(b.adminId);
    const body = { name: 'Menu', destinationUrl: 'https://cafe.example.test/menu', domain: { id: sharedId } };
    const plan = await ensureTestPlan(h.database.db, 'trial-test-plan', true);
    await h.database.db.update(accounts).set({ planId: plan, createdAt: new Date(Date.now() - 14 * DAY) }).where(eq(accounts.id, b.accountId));
    expect((await h.call('POST', `/v1/accounts/${b.accountId}/links`, bToken, body)).statusCode).toBe(201);
    await h.database.db.update(accounts).set({ createdAt: new Date(Date.now() - 16 * DAY) }).where(eq(accounts.id, b.accountId));
    const refused = await h.call('POST', `/v1/accounts/${b.accountId}/links`, bToken, body);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ error: { code: 'trial_expired', message: TRIAL_EXPIRED_MESSAGE } });
  });
});
