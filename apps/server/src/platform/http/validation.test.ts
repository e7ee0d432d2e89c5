import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_CHARACTER_MESSAGE, roles, type Role } from '@parley/shared';
import { queryRows } from '../db/client.js';
import { startApiHarness, type ApiHarness } from '../../test/apiHarness.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { roleFixtures } from '../../test/factories.js';

/*
 * PostgreSQL keeps no NUL character in text: a value holding one must be refused as bad input (400, naming
 * the field, nothing written), never reach a statement that fails with 500 and logs its values.
 */
describe.each(testDatabaseKinds)('the NUL character in a request, on %s', (kind) => {
  let h: ApiHarness;
  let base: string;
  let token: string;

  beforeAll(async () => {
    h = await startApiHarness(kind);
    const fixtures = await roleFixtures(h.database.db);
    const tokens = {} as Record<Role, string>;
    for (const role of roles) tokens[role] = h.tokenFor(fixtures.users[role]);
    token = tokens.Administrator;
    base = `/v1/accounts/${fixtures.accountId}`;
  });
  afterAll(async () => {
    await h.close();
  });

  const contactCount = async (): Promise<number> => {
    const [row] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from contacts`);
    return row?.n ?? 0;
  };

  it('is refused in a body, naming the field, and nothing is written', async () => {
    const before = await contactCount();
    const cases: [object, string][] = [
      [{ firstName: 'Ada\u0000', mobile: { number: '+14155552671' } }, 'firstName'],
      [{ firstName: 'Ada', mobile: { number: '+1415555\u00002671' } }, 'mobile.number'],
      [{ firstName: 'Ada', mobile: { number: '+14155552672' }, attributes: { 'shoe\u0000': '38' } }, 'attributes'],
      [{ firstName: 'Ada', mobile: { number: '+14155552673' }, tags: ['vip', '\u0000'] }, 'tags.1'],
    ];
    for (const [body, field] of cases) {
      const res = await h.call('POST', `${base}/contacts`, token, body);
      expect(res.statusCode, res.body).toBe(400);
      const error = res.json<{ error: { code: string; message: string } }>().error;
      expect(error.code).toBe('validation_failed');
      expect(error.message).toContain(field);
      expect(error.message).toContain(NUL_CHARACTER_MESSAGE);
    }
    expect(await contactCount()).toBe(before);
  });

  it('is refused in a query string', async () => {
    const res = await h.call('GET', `${base}/contacts?q=%00`, token);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(`q: ${NUL_CHARACTER_MESSAGE}`);
  });

  it('leaves other text alone', async () => {
    const res = await h.call('GET', `${base}/contacts?q=${encodeURIComponent('\\u0000 ✓ 😀')}`, token);
    expect(res.statusCode, res.body).toBe(200);
  });
});
