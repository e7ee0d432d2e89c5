import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DOMAIN_NOT_VERIFIED_MESSAGE, validationMessages, type Link, type Pagination } from '@parley/shared';
import { accounts, linkDomains, links } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

describe.each(testDatabaseKinds)('links on %s', (kind) => {
  const { h, ownAccount, fixtures, tokens } = useRouteHarness(kind, { env: { PUBLIC_URL: 'https://hub.example.test' } });

  const url = (acc: string, id?: string) => `/v1/accounts/${acc}/links${id === undefined ? '' : `/${id}`}`;
  const sharedDomainId = async (acc: string, token: string): Promise<string> =>
    (await h.call('GET', `/v1/accounts/${acc}/domains?shared=1`, token)).json<{ data: { id: string }[] }>().data[0]?.id ?? randomUUID();
  const create = async (acc: string, token: string, body: object): Promise<Link> => {
    const res = await h.call('POST', url(acc), token, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Link }>().data;
  };
  const all = async (acc: string, token: string, query = '') =>
    (await h.call('GET', `${url(acc)}?limit=100${query}`, token)).json<{ data: Link[]; pagination: Pagination }>();

  it('adds, lists, finds by name, reads, replaces and removes links; the code stays', async () => {
    const { account, token } = await ownAccount();
    const shared = await sharedDomainId(account.id, token);
    const spring = await create(account.id, token, { name: 'Spring sale', destinationUrl: ' https://shop.example.test/spring?utm=sms ', domain: { id: shared } });
    expect(spring).toMatchObject({
      name: 'Spring sale',
      destinationUrl: 'https://shop.example.test/spring?utm=sms',
      domain: { id: shared },
      contactTracking: false,
      clicks: 0,
      botClicks: 0,
    });
    expect(spring.code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(spring.shortenedUrl).toBe(`https://hub.example.test/r/${spring.code}`);
    const menu = await create(account.id, token, { name: 'Menu', destinationUrl: 'http://cafe.example.test/', domain: { id: shared } });
    expect(menu.code).not.toBe(spring.code);

    expect(await all(account.id, token)).toEqual({ data: [spring, menu], pagination: { totalCount: 2, offset: 0, limit: 100 } });
    expect((await all(account.id, token, '&name=SALE')).data).toEqual([spring]);
    expect((await all(account.id, token, '&name=%25')).data).toEqual([]);
    expect((await h.call('GET', url(account.id, menu.id), token)).json()).toEqual({ data: menu });

    const replaced = await h.call('PUT', url(account.id, spring.id), token, { name: 'Summer sale', destinationUrl: 'https://shop.example.test/summer', domain: { id: shared } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ data: { id: spring.id, code: spring.code, name: 'Summer sale', destinationUrl: 'https://shop.example.test/summer' } });

    expect((await h.call('DELETE', url(account.id, spring.id), token)).statusCode).toBe(204);
    expect((await h.call('GET', url(account.id, spring.id), token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(account.id, spring.id), token)).statusCode).toBe(404);
    expect((await all(account.id, token)).data.map((l) => l.id)).toEqual([menu.id]);
  });

  it('answers at most 10 links to a name lookup', async () => {
    const { account, token } = await ownAccount();
    const shared = await sharedDomainId(account.id, token);
    for (let i = 0; i < 12; i += 1) await create(account.id, token, { name: `Promo ${String(i)}`, destinationUrl: 'https://a.example.test', domain: { id: shared } });
    const found = await h.call('GET', `${url(account.id)}?name=promo`, token);
    expect(found.json<{ data: Link[]; pagination: Pagination }>()).toMatchObject({ pagination: { totalCount: 12, limit: 10 } });
    expect(found.json<{ data: Link[] }>().data).toHaveLength(10);
  });

  it('lets administrators, campaign managers and senders write, and read-only users read', async () => {
    const acc = fixtures.accountId;
    const shared = await sharedDomainId(acc, tokens.Administrator);
    const body = { name: 'Team link', destinationUrl: 'https://team.example.test', domain: { id: shared } };
    for (const role of ['Administrator', 'CampaignManager', 'Sender'] as const) {
      const made = await create(acc, tokens[role], body);
      expect((await h.call('PUT', url(acc, made.id), tokens[role], { ...body, name: role })).statusCode).toBe(200);
      expect((await h.call('DELETE', url(acc, made.id), tokens[role])).statusCode).toBe(204);
    }
    const kept = await create(acc, tokens.Administrator, body);
    const readOnly = tokens.ReadOnly;
    expect((await h.call('GET', url(acc, kept.id), readOnly)).statusCode).toBe(200);
    const refused = [
      await h.call('POST', url(acc), readOnly, body),
      await h.call('PUT', url(acc, kept.id), readOnly, body),
      await h.call('DELETE', url(acc, kept.id), readOnly),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    expect((await h.call('GET', url(acc, kept.id), readOnly)).json()).toEqual({ data: kept });
  });

  it("answers 404 for another account's links and domains", async () => {
    const a = await ownAccount();
    const b = await ownAccount();
    const shared = await sharedDomainId(b.account.id, b.token);
    const theirs = await create(b.account.id, b.token, { name: 'B only', destinationUrl: 'https://b.example.test', domain: { id: shared } });
    const theirDomain = randomUUID();
    await h.database.db.insert(linkDomains).values({ id: theirDomain, accountId: b.account.id, domain: 'b.example.test', renewAt: new Date(Date.now() + 86_400_000) });
    const body = { name: 'Taken', destinationUrl: 'https://a.example.test', domain: { id: shared } };
    const attempts = [
      await h.call('GET', url(a.account.id, theirs.id), a.token),
      await h.call('PUT', url(a.account.id, theirs.id), a.token, body),
      await h.call('DELETE', url(a.account.id, theirs.id), a.token),
      await h.call('GET', url(b.account.id), a.token),
      await h.call('POST', url(a.account.id), a.token, { ...body, domain: { id: theirDomain } }),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect((await all(b.account.id, b.token)).data).toEqual([theirs]);
    expect((await all(a.account.id, a.token)).data).toEqual([]);
  });

  it('refuses bad input and unverified domains, and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const shared = await sharedDomainId(account.id, token);
    const cases: [object, string][] = [
      [{ destinationUrl: 'https://a.example.test', domain: { id: shared } }, 'name: Required'],
      [{ name: ' ', destinationUrl: 'https://a.example.test', domain: { id: shared } }, 'name: Required'],
      [{ name: 'x', domain: { id: shared } }, `destinationUrl: ${validationMessages.required}`],
      [{ name: 'x', destinationUrl: 'shop.example.test', domain: { id: shared } }, `destinationUrl: ${validationMessages.url}`],
      [{ name: 'x', destinationUrl: 'javascript:alert(1)', domain: { id: shared } }, `destinationUrl: ${validationMessages.url}`],
      [{ name: 'x', destinationUrl: 'https://a.example.test' }, 'domain: Required'],
    ];
    for (const [body, message] of cases) {
      const res = await h.call('POST', url(account.id), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
    }
    const pending = randomUUID();
    const lapsed = randomUUID();
    await h.database.db.insert(linkDomains).values([
      { id: pending, accountId: account.id, domain: 'pending.example.test' },
      { id: lapsed, accountId: account.id, domain: 'lapsed.example.test', renewAt: new Date(Date.now() - 1000) },
    ]);
    for (const id of [pending, lapsed]) {
      const res = await h.call('POST', url(account.id), token, { name: 'x', destinationUrl: 'https://a.example.test', domain: { id } });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(`domain: ${DOMAIN_NOT_VERIFIED_MESSAGE}`);
    }
    expect((await all(account.id, token)).data).toEqual([]);
  });

  it('puts links on a verified custom domain, and turns contact tracking on for the account with a tracked link', async () => {
    const { account, token } = await ownAccount();
    const domainId = randomUUID();
    await h.database.db.insert(linkDomains).values({ id: domainId, accountId: account.id, domain: 'go.acme.test', renewAt: new Date(Date.now() + 86_400_000) });
    const link = await create(account.id, token, { name: 'Tracked', destinationUrl: 'https://acme.test', domain: { id: domainId }, contactTracking: true });
    expect(link).toMatchObject({ domain: { id: domainId }, contactTracking: true, shortenedUrl: `https://go.acme.test/${link.code}` });
    const [row] = await h.database.db.select({ options: accounts.options }).from(accounts).where(eq(accounts.id, account.id));
    expect(row?.options).toMatchObject({ contactTracking: true });
    const [stored] = await h.database.db.select().from(links).where(eq(links.id, link.id));
    expect(stored?.domainId).toBe(domainId);
  });
});
