import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  DOMAIN_IN_USE_MESSAGE,
  DOMAIN_TAKEN_MESSAGE,
  DOMAIN_URL_MESSAGE,
  DOMAIN_VERIFIED_ELSEWHERE_MESSAGE,
  domainVerificationFailedMessage,
  domainVerifiedMessage,
  type CustomDomain,
} from '@parley/shared';
import { linkDomains } from '../../../platform/db/schema/index.js';
import { startApiHarness, type ApiHarness } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { startLocalZone, type LocalZone } from '../test/localZone.js';
import { recheckDomains } from '../domainRecheck.js';

const A_RECORDS = ['203.0.113.7', '203.0.113.8'];

describe.each(testDatabaseKinds)('custom domains on %s', (kind) => {
  let zone: LocalZone;
  let h: ApiHarness;
  beforeAll(async () => {
    zone = await startLocalZone();
    h = await startApiHarness(kind, {
      PUBLIC_URL: 'https://hub.example.test',
      SHORT_LINK_DOMAIN: 'sho.rt.test',
      DNS_RESOLVER: zone.address,
      CUSTOM_DOMAIN_A_RECORDS: A_RECORDS.join(','),
      CUSTOM_DOMAIN_CNAME: 'links.hub.example.test',
    });
  });
  afterAll(async () => {
    await h.close();
    await zone.close();
  });

  const url = (acc: string, rest = '') => `/v1/accounts/${acc}/domains${rest}`;
  const errorOf = (res: Awaited<ReturnType<ApiHarness['call']>>) => res.json<{ error: { code: string; message: string } }>().error;
  async function own(role: 'Administrator' | 'ReadOnly' = 'Administrator') {
    const admin = await createUser(h.database.db);
    const account = await createAccount(h.database.db, { [admin.id]: role });
    return { account, token: h.tokenFor(admin.id) };
  }
  const add = async (acc: string, token: string, domain: string): Promise<CustomDomain> => {
    const res = await h.call('POST', url(acc), token, { domain });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: CustomDomain }>().data;
  };
  const verify = async (acc: string, token: string, body: object) => {
    const res = await h.call('PUT', url(acc, '/verify'), token, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: CustomDomain; verified: boolean; message: string }>();
  };

  it('normalises entries, shows the DNS records to create, and refuses what is no domain', async () => {
    const { account, token } = await own();
    const root = await add(account.id, token, ' HTTPS://www.Acme-Root.test/ ');
    expect(root).toMatchObject({ domain: 'acme-root.test', renewAt: null, shared: false });
    expect(root.records).toEqual(A_RECORDS.map((value) => ({ type: 'A', name: 'acme-root.test', value })));
    const sub = await add(account.id, token, 'http://go.acme-root.test');
    expect(sub.records).toEqual([{ type: 'CNAME', name: 'go.acme-root.test', value: 'links.hub.example.test' }]);
    for (const entry of ['not a domain', 'https://', 'localhost', 'acme.test/path', 'ftp://acme.test']) {
      const res = await h.call('POST', url(account.id), token, { domain: entry });
      expect(res.statusCode, entry).toBe(400);
      expect(errorOf(res).message).toBe(`domain: ${DOMAIN_URL_MESSAGE}`);
    }
    expect(errorOf(await h.call('POST', url(account.id), token, { domain: '' })).message).toBe('domain: Required');
    for (const taken of ['acme-root.test', 'sho.rt.test', 'hub.example.test']) {
      const res = await h.call('POST', url(account.id), token, { domain: taken });
      expect(res.statusCode, taken).toBe(409);
      expect(errorOf(res).message).toBe(DOMAIN_TAKEN_MESSAGE);
    }
    const listed = (await h.call('GET', url(account.id), token)).json<{ data: CustomDomain[] }>();
    expect(listed.data.map((d) => d.domain)).toEqual(['acme-root.test', 'go.acme-root.test']);
    const shared = (await h.call('GET', url(account.id, '?shared=1'), token)).json<{ data: CustomDomain[] }>();
    expect(shared.data).toEqual([{ id: expect.any(String) as string, domain: 'sho.rt.test', renewAt: null, shared: true, records: [] }]);
  });

  it('verifies through the configured resolver: A records for a root domain, a CNAME for a subdomain', async () => {
    const { account, token } = await own();
    const root = await add(account.id, token, 'verify-root.test');
    const sub = await add(account.id, token, 'go.verify-root.test');

    const before = await verify(account.id, token, { id: root.id });
    expect(before).toMatchObject({ verified: false, message: domainVerificationFailedMessage('verify-root.test'), data: { renewAt: null } });
    // A records pointing elsewhere too: traffic would not all reach this deployment.
    zone.records.set('verify-root.test', { a: [A_RECORDS[0] ?? '', '198.51.100.1'] });
    expect((await verify(account.id, token, { id: root.id })).verified).toBe(false);
    zone.records.set('verify-root.test', { a: A_RECORDS });
    const done = await verify(account.id, token, { domain: 'verify-root.test' });
    expect(done).toMatchObject({ verified: true, message: domainVerifiedMessage('verify-root.test') });
    expect(Date.parse(done.data.renewAt ?? '')).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    zone.records.set('go.verify-root.test', { cname: 'elsewhere.example.test' });
    expect((await verify(account.id, token, { id: sub.id })).verified).toBe(false);
    zone.records.set('go.verify-root.test', { cname: 'links.hub.example.test.' });
    expect((await verify(account.id, token, { id: sub.id })).verified).toBe(true);

    // The proxy's on-demand TLS may have a certificate for verified domains only.
    expect((await h.app.inject({ method: 'GET', url: '/v1/tls/ask?domain=go.verify-root.test' })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/tls/ask?domain=SHO.RT.TEST' })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/tls/ask?domain=unverified.test' })).statusCode).toBe(404);
  });

  it('lets one account hold a verified domain, re-checks daily, and lapses a domain at renewAt', async () => {
    const a = await own();
    const b = await own();
    zone.records.set('contested.test', { a: A_RECORDS });
    const mine = await add(a.account.id, a.token, 'contested.test');
    expect((await verify(a.account.id, a.token, { id: mine.id })).verified).toBe(true);
    const theirs = await add(b.account.id, b.token, 'contested.test');
    const clash = await h.call('PUT', url(b.account.id, '/verify'), b.token, { id: theirs.id });
    expect(clash.statusCode).toBe(409);
    expect(errorOf(clash).message).toBe(DOMAIN_VERIFIED_ELSEWHERE_MESSAGE);

    // The daily job moves renewAt on while DNS still points here; when it stops, renewAt runs out.
    const soon = new Date(Date.now() + 3600_000);
    await h.database.db.update(linkDomains).set({ renewAt: soon }).where(eq(linkDomains.id, mine.id));
    await recheckDomains(h.database.db, { resolver: zone.address, aRecords: A_RECORDS, cname: 'links.hub.example.test', shortDomain: 'sho.rt.test' });
    const [renewed] = await h.database.db.select().from(linkDomains).where(eq(linkDomains.id, mine.id));
    expect(renewed?.renewAt?.getTime()).toBeGreaterThan(soon.getTime() + 86_400_000);
    zone.records.delete('contested.test');
    await h.database.db.update(linkDomains).set({ renewAt: soon }).where(eq(linkDomains.id, mine.id));
    await recheckDomains(h.database.db, { resolver: zone.address, aRecords: A_RECORDS, cname: 'links.hub.example.test', shortDomain: 'sho.rt.test' });
    const [kept] = await h.database.db.select().from(linkDomains).where(eq(linkDomains.id, mine.id));
    expect(kept?.renewAt?.getTime()).toBe(soon.getTime());
    await h.database.db.update(linkDomains).set({ renewAt: new Date(Date.now() - 1000) }).where(eq(linkDomains.id, mine.id));
    const res = await h.call('POST', `/v1/accounts/${a.account.id}/links`, a.token, { name: 'x', destinationUrl: 'https://a.test', domain: { id: mine.id } });
    expect(res.statusCode).toBe(400);
  });

  it('removes domains no link uses, refuses read-only users and other accounts', async () => {
    const { account, token } = await own();
    zone.records.set('busy.test', { a: A_RECORDS });
    const busy = await add(account.id, token, 'busy.test');
    await verify(account.id, token, { id: busy.id });
    const idle = await add(account.id, token, 'idle.test');
    expect((await h.call('POST', `/v1/accounts/${account.id}/links`, token, { name: 'x', destinationUrl: 'https://a.test', domain: { id: busy.id } })).statusCode).toBe(201);
    const inUse = await h.call('DELETE', url(account.id, `/${busy.id}`), token);
    expect(inUse.statusCode).toBe(409);
    expect(errorOf(inUse).message).toBe(DOMAIN_IN_USE_MESSAGE);

    const other = await own();
    expect((await h.call('DELETE', url(other.account.id, `/${idle.id}`), other.token)).statusCode).toBe(404);
    expect((await h.call('PUT', url(other.account.id, '/verify'), other.token, { id: idle.id })).statusCode).toBe(404);
    expect((await h.call('DELETE', url(account.id, `/${idle.id}`), other.token)).statusCode).toBe(404);
    const readOnly = await createUser(h.database.db);
    const { accountMembers } = await import('../../../platform/db/schema/index.js');
    await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: readOnly.id, role: 'ReadOnly' });
    const roToken = h.tokenFor(readOnly.id);
    expect((await h.call('GET', url(account.id), roToken)).statusCode).toBe(200);
    expect((await h.call('POST', url(account.id), roToken, { domain: 'ro.test' })).statusCode).toBe(403);
    expect((await h.call('DELETE', url(account.id, `/${idle.id}`), roToken)).statusCode).toBe(403);

    expect((await h.call('DELETE', url(account.id, `/${idle.id}`), token)).statusCode).toBe(204);
    expect((await h.call('DELETE', url(account.id, `/${idle.id}`), token)).statusCode).toBe(404);
  });
});
