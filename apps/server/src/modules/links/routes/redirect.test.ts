import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Link } from '@parley/shared';
import { linkDomains, links } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { existingLinksRuntime } from '../linksRuntime.js';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describe.each(testDatabaseKinds)('short-link redirects on %s', (kind) => {
  const { h, ownAccount } = useRouteHarness(kind, { env: { PUBLIC_URL: 'https://hub.example.test', SHORT_LINK_DOMAIN: 'sho.rt.test' } });

  const open = (path: string, host: string, agent = PHONE) => h.app.inject({ method: 'GET', url: path, headers: { host, 'user-agent': agent } });
  const counts = async (id: string) => {
    const [row] = await h.database.db.select({ clicks: links.clicks, botClicks: links.botClicks }).from(links).where(eq(links.id, id));
    return row;
  };
  const flush = async () => {
    await existingLinksRuntime(h.database)?.clicks.flush();
  };

  async function linkOn(domainId: string | null): Promise<Link & { accountId: string; token: string }> {
    const { account, token } = await ownAccount();
    const shared = (await h.call('GET', `/v1/accounts/${account.id}/domains?shared=1`, token)).json<{ data: { id: string }[] }>().data[0]?.id;
    let domain = shared;
    if (domainId !== null) {
      await h.database.db.insert(linkDomains).values({ id: domainId, accountId: account.id, domain: 'go.acme.test', renewAt: new Date(Date.now() + 86_400_000) });
      domain = domainId;
    }
    const res = await h.call('POST', `/v1/accounts/${account.id}/links`, token, { name: 'Sale', destinationUrl: 'https://shop.example.test/sale?x=1', domain: { id: domain } });
    expect(res.statusCode, res.body).toBe(201);
    return { ...res.json<{ data: Link }>().data, accountId: account.id, token };
  }

  it('redirects /r/{code} on the main host and /{code} on the short domain with 302, counting clicks in batches', async () => {
    const link = await linkOn(null);
    expect(link.shortenedUrl).toBe(`https://sho.rt.test/${link.code}`);
    const viaMain = await open(`/r/${link.code}`, 'hub.example.test');
    expect(viaMain.statusCode).toBe(302);
    expect(viaMain.headers.location).toBe('https://shop.example.test/sale?x=1');
    expect(viaMain.headers['cache-control']).toBe('private, no-store');
    const viaShort = await open(`/${link.code}`, 'sho.rt.test');
    expect(viaShort.statusCode).toBe(302);
    expect(viaShort.headers.location).toBe('https://shop.example.test/sale?x=1');
    expect((await open(`/${link.code}?utm=1`, 'SHO.RT.TEST:443')).statusCode).toBe(302);
    expect((await open(`/r/${link.code}`, 'hub.example.test', SLACK)).statusCode).toBe(302);

    // Nothing is written on the request path: the counts land with the batch.
    expect(await counts(link.id)).toEqual({ clicks: 0, botClicks: 0 });
    await flush();
    expect(await counts(link.id)).toEqual({ clicks: 3, botClicks: 1 });
    await flush();
    expect(await counts(link.id)).toEqual({ clicks: 3, botClicks: 1 });
    const listed = await h.call('GET', `/v1/accounts/${link.accountId}/links/${link.id}`, link.token);
    expect(listed.json()).toMatchObject({ data: { clicks: 3, botClicks: 1 } });
  });

  it('answers 404 with a plain page for unknown, malformed and removed codes', async () => {
    const link = await linkOn(null);
    for (const [path, host] of [
      ['/r/zzzzzzzzzz', 'hub.example.test'],
      ['/r/abc', 'hub.example.test'],
      ['/r/abc%2Fdefghij', 'hub.example.test'],
      ['/zzzzzzzzzz', 'sho.rt.test'],
    ] as const) {
      const res = await open(path, host);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('Link not found');
    }
    expect((await open(`/r/${link.code}`, 'hub.example.test')).statusCode).toBe(302);
    expect((await h.call('DELETE', `/v1/accounts/${link.accountId}/links/${link.id}`, link.token)).statusCode).toBe(204);
    expect((await open(`/r/${link.code}`, 'hub.example.test')).statusCode).toBe(404);
    await flush();
  });

  it('follows an edited destination at once, and serves a custom-domain link only on its own domain', async () => {
    const domainId = randomUUID();
    const link = await linkOn(domainId);
    expect(link.shortenedUrl).toBe(`https://go.acme.test/${link.code}`);
    await existingLinksRuntime(h.database)?.hosts.refresh();
    expect((await open(`/${link.code}`, 'go.acme.test')).headers.location).toBe('https://shop.example.test/sale?x=1');
    const edited = await h.call('PUT', `/v1/accounts/${link.accountId}/links/${link.id}`, link.token, {
      name: 'Sale',
      destinationUrl: 'https://shop.example.test/new',
      domain: { id: domainId },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await open(`/${link.code}`, 'go.acme.test')).headers.location).toBe('https://shop.example.test/new');
    // Not on the shared short domain, and the custom domain's other paths stay the web app's.
    expect((await open(`/${link.code}`, 'sho.rt.test')).statusCode).toBe(404);
    const shared = await linkOn(null);
    expect((await open(`/${shared.code}`, 'go.acme.test')).statusCode).toBe(404);
    // On another host the path is no code but a page of the web app (not built in tests).
    const page = await open(`/${link.code}`, 'elsewhere.example.test');
    expect(page.headers.location).toBeUndefined();
    expect(page.body).toContain('The web app is not built');
    await flush();
  });
});
