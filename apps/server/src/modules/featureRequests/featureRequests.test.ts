import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jwtVerify } from 'jose';
import {
  FEATURE_BOARD_OPERATORS_ONLY_MESSAGE,
  FEATURE_BOARD_PEOPLE_ONLY_MESSAGE,
  FEATURE_REQUEST_NOT_FOUND_MESSAGE,
  FEATURE_STATUS_MESSAGE,
  type FeatureComment,
  type FeatureRequest,
} from '@parley/shared';
import { users } from '../../platform/db/schema/index.js';
import { startApiHarness, type ApiHarness, type HttpMethod } from '../../test/apiHarness.js';
import { testConfig } from '../../test/config.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { purposeKey } from '../../platform/secrets/keyring.js';
import { createUser } from '../../test/factories.js';

const SECRET = 'a-board-secret-of-at-least-32-characters';
const BOARD_URL = 'https://board.example.com/feature-requests';

describe.each(testDatabaseKinds)('the feature-request board on %s', (kind) => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness(kind, { FEATURE_BOARD_URL: BOARD_URL, FEATURE_BOARD_SECRET: SECRET });
  });
  afterAll(async () => {
    await h.close();
  });

  const call = (method: HttpMethod, url: string, token: string, body?: object) => h.call(method, url, token, body);
  const person = async (overrides: { firstName?: string; lastName?: string; operator?: boolean } = {}) => {
    const user = await createUser(h.database.db, overrides);
    return { user, token: h.tokenFor(user.id) };
  };
  const post = async (token: string, title: string, text = `About ${title}`): Promise<FeatureRequest> => {
    const res = await call('POST', '/v1/featurerequests', token, { title, text });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: FeatureRequest }>().data;
  };
  const read = async (token: string, id: string): Promise<FeatureRequest> =>
    (await call('GET', `/v1/featurerequests/${id}`, token)).json<{ data: FeatureRequest }>().data;
  const titles = async (token: string, query: string): Promise<string[]> => {
    const res = await call('GET', `/v1/featurerequests?limit=100&${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: FeatureRequest[] }>().data.map((p) => p.title);
  };

  it('takes a post from every signed-in person, open, with its author', async () => {
    const { user, token } = await person({ firstName: 'Ada', lastName: 'Lovelace' });
    const made = await post(token, 'Dark mode', 'Please add a dark theme');
    expect(made).toEqual(
      expect.objectContaining({ title: 'Dark mode', text: 'Please add a dark theme', status: 'open', voteCount: 0, commentCount: 0, voted: false }),
    );
    expect(made.author).toEqual({ id: user.id, name: 'Ada Lovelace' });
    expect(await read(token, made.id)).toEqual(made);
  });

  it('refuses bad input with clear messages and unsigned or API callers', async () => {
    const { token } = await person();
    const blank = await call('POST', '/v1/featurerequests', token, { title: '  ', text: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('Required');
    const long = await call('POST', '/v1/featurerequests', token, { title: 'x'.repeat(201), text: 'ok' });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('At most 200 characters');
    const sort = await call('GET', '/v1/featurerequests?sort=oldest', token);
    expect(sort.statusCode).toBe(400);
    expect(sort.body).toContain('Sort by votes or recent');
    expect((await h.call('GET', '/v1/featurerequests')).statusCode).toBe(401);
    const client = h.authenticator.add({ userId: 'client-1', clientId: 'client-1', accountIds: [] });
    const refused = await call('GET', '/v1/featurerequests', client);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 'forbidden', message: FEATURE_BOARD_PEOPLE_ONLY_MESSAGE } });
    const missing = await call('GET', '/v1/featurerequests/not-an-id', token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: FEATURE_REQUEST_NOT_FOUND_MESSAGE } });
    expect((await call('PUT', '/v1/featurerequests/0190f5a0-0000-7000-8000-000000000000/vote', token)).statusCode).toBe(404);
  });

  it('counts one vote per person, however many arrive at once, and takes a vote back', async () => {
    const { token } = await person();
    const made = await post(token, 'Vote target');
    const tenAtOnce = await Promise.all(Array.from({ length: 10 }, () => call('PUT', `/v1/featurerequests/${made.id}/vote`, token)));
    expect(tenAtOnce.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await read(token, made.id)).toEqual(expect.objectContaining({ voteCount: 1, voted: true }));

    const others = await Promise.all(Array.from({ length: 4 }, () => person()));
    await Promise.all(others.map((o) => call('PUT', `/v1/featurerequests/${made.id}/vote`, o.token)));
    expect((await read(token, made.id)).voteCount).toBe(5);
    const [first] = others;
    expect(await read(first?.token ?? '', made.id)).toEqual(expect.objectContaining({ voted: true }));

    const unvoted = await call('DELETE', `/v1/featurerequests/${made.id}/vote`, token);
    expect(unvoted.json<{ data: FeatureRequest }>().data).toEqual(expect.objectContaining({ voteCount: 4, voted: false }));
    // Taking back a vote one does not have changes nothing.
    await call('DELETE', `/v1/featurerequests/${made.id}/vote`, token);
    expect((await read(token, made.id)).voteCount).toBe(4);
  });

  it('keeps comments under a post, oldest first, and counts them', async () => {
    const { token } = await person({ firstName: 'Cy', lastName: '' });
    const made = await post(token, 'Comment target');
    for (const text of ['First thought', 'Second thought']) {
      const res = await call('POST', `/v1/featurerequests/${made.id}/comments`, token, { text });
      expect(res.statusCode).toBe(201);
      expect(res.json<{ data: FeatureComment }>().data).toEqual(expect.objectContaining({ text, featureRequest: { id: made.id } }));
    }
    const list = await call('GET', `/v1/featurerequests/${made.id}/comments`, token);
    expect(list.json<{ data: FeatureComment[] }>().data.map((c) => [c.text, c.author?.name])).toEqual([
      ['First thought', 'Cy'],
      ['Second thought', 'Cy'],
    ]);
    expect((await read(token, made.id)).commentCount).toBe(2);
    const empty = await call('POST', `/v1/featurerequests/${made.id}/comments`, token, { text: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Required');
    expect((await call('GET', '/v1/featurerequests/0190f5a0-0000-7000-8000-000000000000/comments', token)).statusCode).toBe(404);
  });

  it('searches words in the title and text, filters by status and sorts by votes or recency', async () => {
    const { token } = await person();
    const tag = `zq${Date.now().toString(36)}`;
    const calendar = await post(token, `${tag} Calendar sync`, 'Sync with Google calendar');
    const bulk = await post(token, `${tag} Bulk export`, 'Export 100% of contacts_list');
    const voters = await Promise.all(Array.from({ length: 2 }, () => person()));
    await Promise.all(voters.map((v) => call('PUT', `/v1/featurerequests/${bulk.id}/vote`, v.token)));

    expect(await titles(token, `search=${tag}`)).toEqual([bulk.title, calendar.title]);
    expect(await titles(token, `search=${tag}&sort=recent`)).toEqual([bulk.title, calendar.title]);
    await call('PUT', `/v1/featurerequests/${calendar.id}/vote`, voters[0]?.token ?? '');
    await call('PUT', `/v1/featurerequests/${calendar.id}/vote`, voters[1]?.token ?? '');
    await call('PUT', `/v1/featurerequests/${calendar.id}/vote`, token);
    expect(await titles(token, `search=${tag}`)).toEqual([calendar.title, bulk.title]);
    expect(await titles(token, `search=${encodeURIComponent(`GOOGLE ${tag}`)}`)).toEqual([calendar.title]);
    expect(await titles(token, `search=${encodeURIComponent(`${tag} 100%`)}`)).toEqual([bulk.title]);
    // LIKE wildcards in a word match themselves: c_n is not "con".
    expect(await titles(token, `search=${encodeURIComponent(`${tag} c_n`)}`)).toEqual([]);
    expect(await titles(token, `search=${encodeURIComponent(`${tag} s_l`)}`)).toEqual([bulk.title]);

    const operator = await person({ operator: true });
    await call('PUT', `/v1/featurerequests/${bulk.id}`, operator.token, { status: 'planned' });
    expect(await titles(token, `search=${tag}&status=planned`)).toEqual([bulk.title]);
    expect(await titles(token, `search=${tag}&status=open`)).toEqual([calendar.title]);
  });

  it('lets operators change statuses, edit and remove, and refuses everyone else', async () => {
    const author = await person();
    const operator = await person({ operator: true });
    const made = await post(author.token, 'Status target');
    const refusedChange = await call('PUT', `/v1/featurerequests/${made.id}`, author.token, { status: 'done' });
    expect(refusedChange.statusCode).toBe(403);
    expect(refusedChange.json()).toEqual({ error: { code: 'forbidden', message: FEATURE_BOARD_OPERATORS_ONLY_MESSAGE } });
    expect((await call('DELETE', `/v1/featurerequests/${made.id}`, author.token)).statusCode).toBe(403);
    expect((await read(author.token, made.id)).status).toBe('open');

    const badStatus = await call('PUT', `/v1/featurerequests/${made.id}`, operator.token, { status: 'shipped' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.body).toContain(FEATURE_STATUS_MESSAGE);
    const changed = await call('PUT', `/v1/featurerequests/${made.id}`, operator.token, { status: 'inProgress', title: 'Renamed' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ data: FeatureRequest }>().data).toEqual(expect.objectContaining({ status: 'inProgress', title: 'Renamed' }));

    const comment = (await call('POST', `/v1/featurerequests/${made.id}/comments`, author.token, { text: 'mine' })).json<{ data: FeatureComment }>().data;
    const commentUrl = `/v1/featurerequests/${made.id}/comments/${comment.id}`;
    expect((await call('PUT', commentUrl, author.token, { text: 'edited' })).statusCode).toBe(403);
    expect((await call('DELETE', commentUrl, author.token)).statusCode).toBe(403);
    expect((await call('PUT', commentUrl, operator.token, { text: 'edited' })).json<{ data: FeatureComment }>().data.text).toBe('edited');
    expect((await call('DELETE', commentUrl, operator.token)).statusCode).toBe(204);
    expect((await read(author.token, made.id)).commentCount).toBe(0);
    expect((await call('DELETE', commentUrl, operator.token)).statusCode).toBe(404);

    expect((await call('DELETE', `/v1/featurerequests/${made.id}`, operator.token)).statusCode).toBe(204);
    expect((await call('GET', `/v1/featurerequests/${made.id}`, author.token)).statusCode).toBe(404);
  });

  it('answers a short-lived HS256 sign-on token for the board, with the external board to embed', async () => {
    const { user, token } = await person({ firstName: 'Olga', lastName: 'Op', operator: true });
    const before = Math.floor(Date.now() / 1000);
    const res = await call('POST', '/v1/featurerequests/token', token);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ data: { token: string; expiresAt: string; board: string; operator: boolean; boardUrl: string | null } }>().data;
    expect(answer).toEqual(expect.objectContaining({ board: 'feature-requests', operator: true, boardUrl: BOARD_URL }));
    const { payload, protectedHeader } = await jwtVerify(answer.token, new TextEncoder().encode(SECRET), { algorithms: ['HS256'] });
    expect(protectedHeader.alg).toBe('HS256');
    expect(Object.keys(payload).sort()).toEqual(['board', 'email', 'exp', 'iat', 'name', 'operator', 'sub']);
    expect(payload).toEqual(expect.objectContaining({ sub: user.id, email: user.email, name: 'Olga Op', operator: true, board: 'feature-requests' }));
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
    expect(answer.expiresAt).toBe(new Date((payload.exp ?? 0) * 1000).toISOString());
    // Past its expiry the token is refused; with another key it never checks.
    await expect(jwtVerify(answer.token, new TextEncoder().encode(SECRET), { currentDate: new Date(((payload.exp ?? 0) + 1) * 1000) })).rejects.toThrow(/exp/);
    await expect(jwtVerify(answer.token, new TextEncoder().encode(`${SECRET}-other`))).rejects.toThrow();

    await h.database.db.update(users).set({ operator: false }).where(eq(users.id, user.id));
    const plain = (await call('POST', '/v1/featurerequests/token', token)).json<{ data: { token: string; operator: boolean } }>().data;
    expect(plain.operator).toBe(false);
    expect((await jwtVerify(plain.token, new TextEncoder().encode(SECRET))).payload.operator).toBe(false);
  });
});

describe.each(testDatabaseKinds)('the built-in board sign-on token on %s', (kind) => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  it('is signed with a key derived from the secrets key, and names no external board', async () => {
    const user = await createUser(h.database.db);
    const res = await h.call('POST', '/v1/featurerequests/token', h.tokenFor(user.id));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ data: { token: string; boardUrl: string | null; operator: boolean } }>().data;
    expect(answer).toEqual(expect.objectContaining({ boardUrl: null, operator: false }));
    const key = await purposeKey(testConfig().secrets, 'parley feature board token v1', false);
    expect(key).not.toBeNull();
    const { payload } = await jwtVerify(answer.token, new Uint8Array(key ?? Buffer.alloc(0)), { algorithms: ['HS256'] });
    expect(payload.sub).toBe(user.id);
  });
});
