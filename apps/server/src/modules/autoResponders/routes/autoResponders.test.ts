import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AUTO_RESPONDER_MATCH_TAKEN_MESSAGE,
  AUTO_RESPONDERS_MAX,
  AUTO_RESPONDERS_MAX_MESSAGE,
  AUTO_RESPONDERS_TRIAL_MESSAGE,
  NUL_CHARACTER_MESSAGE,
  type AutoResponder,
  type Pagination,
  type Role,
} from '@parley/shared';
import { autoResponders } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser, ensureTestPlan } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

describe.each(testDatabaseKinds)('auto responders on %s', (kind) => {
  const { h, ownAccount } = useRouteHarness(kind);

  const url = (acc: string, id?: string) => `/v1/accounts/${acc}/autoresponders${id === undefined ? '' : `/${id}`}`;
  const all = async (acc: string, token: string) =>
    (await h.call('GET', `${url(acc)}?limit=100`, token)).json<{ data: AutoResponder[]; pagination: Pagination }>();
  const create = async (acc: string, token: string, body: object): Promise<AutoResponder> => {
    const res = await h.call('POST', url(acc), token, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: AutoResponder }>().data;
  };
  const errorOf = (res: Awaited<ReturnType<typeof h.call>>) => res.json<{ error: { code: string; message: string } }>().error;

  /** An account with one user per role, and a token for each. */
  async function teamAccount() {
    const users = {} as Record<Role, string>;
    const members: Record<string, Role> = {};
    for (const role of ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const) {
      const user = await createUser(h.database.db);
      users[role] = h.tokenFor(user.id);
      members[user.id] = role;
    }
    const account = await createAccount(h.database.db, members);
    return { account, tokens: users };
  }

  it('adds, lists oldest first, reads, replaces and removes auto responders', async () => {
    const { account, admin, token } = await ownAccount();
    const price = await create(account.id, token, { match: '  price ', response: ' Our prices: {{{firstName}}}, see example.test ' });
    expect(price).toEqual({
      id: expect.any(String) as string,
      match: 'price',
      response: 'Our prices: {{{firstName}}}, see example.test',
      advanced: false,
      created: { at: expect.any(String) as string },
      updated: { at: expect.any(String) as string },
    });
    const [stored] = await h.database.db.select().from(autoResponders).where(eq(autoResponders.id, price.id));
    expect(stored?.createdByUserId).toBe(admin.id);
    const order = await create(account.id, token, { match: String.raw`order\s*#?\d+`, response: 'We are on it', advanced: true });
    expect(order.advanced).toBe(true);

    expect(await all(account.id, token)).toEqual({ data: [price, order], pagination: { totalCount: 2, offset: 0, limit: 100 } });
    const second = await h.call('GET', `${url(account.id)}?limit=1&offset=1`, token);
    expect(second.json()).toEqual({ data: [order], pagination: { totalCount: 2, offset: 1, limit: 1 } });
    expect((await h.call('GET', url(account.id, price.id), token)).json()).toEqual({ data: price });

    // PUT replaces the whole responder; it keeps its place in the order.
    const replaced = await h.call('PUT', url(account.id, price.id), token, { match: 'prices?', response: 'See our site', advanced: true });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ data: { id: price.id, match: 'prices?', response: 'See our site', advanced: true, created: price.created } });
    const back = await h.call('PUT', url(account.id, price.id), token, { match: 'price', response: 'See our site' });
    expect(back.json()).toMatchObject({ data: { match: 'price', advanced: false } });
    expect((await all(account.id, token)).data.map((r) => r.id)).toEqual([price.id, order.id]);

    expect((await h.call('DELETE', url(account.id, price.id), token)).statusCode).toBe(204);
    expect((await h.call('GET', url(account.id, price.id), token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(account.id, price.id), token)).statusCode).toBe(404);
    expect((await all(account.id, token)).data).toEqual([order]);
  });

  it('lets administrators and campaign managers write, and every role read', async () => {
    const { account, tokens } = await teamAccount();
    const existing = await create(account.id, tokens.Administrator, { match: 'hours', response: '9 to 5' });
    const managed = await create(account.id, tokens.CampaignManager, { match: 'menu', response: 'Soup' });
    expect((await h.call('PUT', url(account.id, managed.id), tokens.CampaignManager, { match: 'menu', response: 'Salad' })).statusCode).toBe(200);
    for (const role of ['Sender', 'ReadOnly'] as const) {
      const token = tokens[role];
      expect((await h.call('GET', url(account.id), token)).json()).toMatchObject({ pagination: { totalCount: 2 } });
      expect((await h.call('GET', url(account.id, existing.id), token)).statusCode).toBe(200);
      const refused = [
        await h.call('POST', url(account.id), token, { match: 'new', response: 'New' }),
        await h.call('PUT', url(account.id, existing.id), token, { match: 'changed', response: 'Changed' }),
        await h.call('DELETE', url(account.id, existing.id), token),
      ];
      expect(refused.map((r) => r.statusCode), role).toEqual([403, 403, 403]);
    }
    expect((await all(account.id, tokens.Administrator)).data).toEqual([existing, expect.objectContaining({ id: managed.id, response: 'Salad' })]);
    expect((await h.call('DELETE', url(account.id, managed.id), tokens.CampaignManager)).statusCode).toBe(204);
  });

  it("answers 404 for another account's responders and leaves them as they were", async () => {
    const a = await ownAccount();
    const b = await ownAccount();
    const theirs = await create(b.account.id, b.token, { match: 'secret', response: 'B only' });
    const body = { match: 'taken', response: 'By A' };
    const attempts = [
      await h.call('GET', url(a.account.id, theirs.id), a.token),
      await h.call('PUT', url(a.account.id, theirs.id), a.token, body),
      await h.call('DELETE', url(a.account.id, theirs.id), a.token),
      await h.call('GET', url(b.account.id, theirs.id), a.token),
      await h.call('GET', url(b.account.id), a.token),
      await h.call('GET', url(a.account.id, 'not-a-uuid'), a.token),
      await h.call('PUT', url(a.account.id, randomUUID()), a.token, body),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(attempts[0]?.json()).toEqual({ error: { code: 'not_found', message: 'The auto responder was not found.' } });
    expect((await all(a.account.id, a.token)).data).toEqual([]);
    expect((await all(b.account.id, b.token)).data).toEqual([theirs]);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const kept = await create(account.id, token, { match: 'hours', response: '9 to 5' });
    const cases: [object, string][] = [
      [{ response: 'Hi' }, 'match: Required'],
      [{ match: '   ', response: 'Hi' }, 'match: Required'],
      [{ match: 'hi' }, 'response: Required'],
      [{ match: 'hi', response: ' \n ' }, 'response: Required'],
      [{ match: 'x'.repeat(201), response: 'Hi' }, 'match: At most 200 characters'],
      [{ match: 'hi', response: 'x'.repeat(1601) }, 'response: At most 1600 characters'],
      [{ match: 'hi', response: 'a\u0000b' }, `response: ${NUL_CHARACTER_MESSAGE}`],
      [{ match: 'h\u0000i', response: 'Hi' }, `match: ${NUL_CHARACTER_MESSAGE}`],
      [{ match: 'hi', response: 'Hi', advanced: 'yes' }, 'advanced: Use true or false'],
      [{ match: '(abc', response: 'Hi', advanced: true }, 'match: Invalid regular expression: missing closing ): `(abc`'],
      [{ match: String.raw`(\w)\1`, response: 'Hi', advanced: true }, 'match: Invalid regular expression: backreferences such as \\1 are not supported'],
      [{ match: 'a(?=b)', response: 'Hi', advanced: true }, 'match: Invalid regular expression: lookahead and lookbehind'],
      [{ match: 'a{5000}', response: 'Hi', advanced: true }, 'match: Invalid regular expression: invalid repeat count'],
    ];
    for (const [body, message] of cases) {
      for (const res of [await h.call('POST', url(account.id), token, body), await h.call('PUT', url(account.id, kept.id), token, body)]) {
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).message, JSON.stringify(body)).toContain(message);
      }
    }
    expect(await all(account.id, token)).toEqual({ data: [kept], pagination: { totalCount: 1, offset: 0, limit: 100 } });
    // As a Simple match the same text is literal and fine.
    expect((await create(account.id, token, { match: '(abc', response: 'Hi' })).advanced).toBe(false);
  });

  it('refuses a second responder with the same match, ignoring case for Simple ones', async () => {
    const { account, token } = await ownAccount();
    const hours = await create(account.id, token, { match: 'Hours', response: '9 to 5' });
    const pattern = await create(account.id, token, { match: '^hi$', response: 'Hello', advanced: true });
    for (const body of [
      { match: 'HOURS', response: 'Again' },
      { match: '^hi$', response: 'Again', advanced: true },
    ]) {
      const res = await h.call('POST', url(account.id), token, body);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'conflict', message: AUTO_RESPONDER_MATCH_TAKEN_MESSAGE });
    }
    const clash = await h.call('PUT', url(account.id, pattern.id), token, { match: 'hours', response: 'Hello' });
    expect(clash.statusCode).toBe(409);
    // The same text as the other kind, or a responder keeping its own match, is no clash.
    await create(account.id, token, { match: 'hours', response: 'Pattern', advanced: true });
    await create(account.id, token, { match: '^HI$', response: 'Pattern', advanced: true });
    expect((await h.call('PUT', url(account.id, hours.id), token, { match: 'HOURS', response: 'Changed' })).statusCode).toBe(200);
    expect((await all(account.id, token)).pagination.totalCount).toBe(4);
  });

  it(`keeps an account to ${String(AUTO_RESPONDERS_MAX)} responders`, async () => {
    const { account, token } = await ownAccount();
    await h.database.db.insert(autoResponders).values(
      Array.from({ length: AUTO_RESPONDERS_MAX }, (_, i) => ({ id: randomUUID(), accountId: account.id, match: `word${String(i)}`, response: 'Hi' })),
    );
    const res = await h.call('POST', url(account.id), token, { match: 'one more', response: 'Hi' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ code: 'conflict', message: AUTO_RESPONDERS_MAX_MESSAGE });
    expect((await all(account.id, token)).pagination.totalCount).toBe(AUTO_RESPONDERS_MAX);
  });

  it('refuses every write on a trial plan with a clear message, and still lists', async () => {
    const planId = await ensureTestPlan(h.database.db, 'test-trial', true);
    const { account, token } = await ownAccount({ planId });
    const leftOver = randomUUID();
    await h.database.db.insert(autoResponders).values({ id: leftOver, accountId: account.id, match: 'old', response: 'From before' });
    const attempts = [
      await h.call('POST', url(account.id), token, { match: 'hours', response: '9 to 5' }),
      await h.call('PUT', url(account.id, leftOver), token, { match: 'new', response: 'Changed' }),
      await h.call('DELETE', url(account.id, leftOver), token),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(403);
      expect(errorOf(res)).toEqual({ code: 'forbidden', message: AUTO_RESPONDERS_TRIAL_MESSAGE });
    }
    expect((await all(account.id, token)).data).toEqual([expect.objectContaining({ id: leftOver, match: 'old', response: 'From before' })]);
  });
});
