import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness } from '../../test/apiHarness.js';
import { createAccount, createUser } from '../../test/factories.js';
import { TokenBuckets, TOO_MANY_REQUESTS } from './rateLimit.js';

describe('token buckets', () => {
  it("spend a minute's allowance at once and earn it back evenly", () => {
    let now = 0;
    const buckets = new TokenBuckets(3, () => now);
    for (let i = 0; i < 3; i++) expect(buckets.take('a')).toEqual({ ok: true });
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(buckets.take('b')).toEqual({ ok: true });
    now += 19_000;
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 1_000;
    expect(buckets.take('a')).toEqual({ ok: true });
    expect(buckets.take('a').ok).toBe(false);
  });
});

describe('the API rate limits', () => {
  let h: ApiHarness;
  let accountId: string;
  const tokens: string[] = [];

  beforeAll(async () => {
    h = await startApiHarness('pglite', { API_RATE_LIMIT: '5', API_RATE_LIMIT_PER_ADDRESS: '8' });
    const owner = await createUser(h.database.db);
    accountId = (await createAccount(h.database.db, { [owner.id]: 'Administrator' })).id;
    tokens.push(h.tokenFor(owner.id));
    for (let i = 0; i < 3; i++) tokens.push(h.tokenFor((await createUser(h.database.db)).id));
  });
  afterAll(async () => {
    await h.close();
  });

  const get = (token: string | undefined, remoteAddress: string) =>
    h.app.inject({
      method: 'GET',
      url: `/v1/accounts/${accountId}`,
      remoteAddress,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('answer 429 with Retry-After once a credential has used its allowance', async () => {
    const [owner = ''] = tokens;
    for (let i = 0; i < 5; i++) expect((await get(owner, '192.0.2.1')).statusCode).toBe(200);
    const refused = await get(owner, '192.0.2.2');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'rate_limited', message: TOO_MANY_REQUESTS } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(12);
  });

  it('count every request that needs a token against its address, signed in or not', async () => {
    const address = '198.51.100.7';
    // Tokens nobody issued: each is refused, and each counts.
    for (let i = 0; i < 8; i++) expect((await get(`guess-${String(i)}`, address)).statusCode).toBe(401);
    expect((await get('guess-9', address)).statusCode).toBe(429);
    // A valid token from that address waits too; from another address it is served.
    expect((await get(tokens[1] ?? '', address)).statusCode).toBe(429);
    expect((await get(tokens[1] ?? '', '198.51.100.8')).statusCode).not.toBe(429);
  });

  it('leave public routes to their own limits', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await h.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '198.51.100.7' });
      expect(res.statusCode).toBe(200);
    }
  });
});
