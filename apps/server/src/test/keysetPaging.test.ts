import { describe, expect, it } from 'vitest';
import { CURSOR_WITH_OFFSET_MESSAGE, type Pagination } from '@parley/shared';
import { CURSOR_INVALID_MESSAGE } from '../platform/db/keyset.js';
import { addConversation, addMessage } from './conversations.js';
import { testDatabaseKinds } from './databases.js';
import { useRouteHarness } from './routeHarness.js';
import { addContact, sendingAccount } from './sendingFixtures.js';

/*
 * Keyset paging of the long lists (docs/api.md, "Paging"): `after` takes the `next` of the page before, and
 * the pages it gives are the offset pages, however deep.
 */

interface Page {
  data: { id: string; lastName?: string }[];
  pagination: Pagination;
}

describe.each(testDatabaseKinds)('keyset paging on %s', (kind) => {
  const { h, tokens, fixtures } = useRouteHarness(kind);

  /** Every page of a list by following `next`, and the ids of each. */
  async function follow(url: string, token: string): Promise<string[][]> {
    const pages: string[][] = [];
    let after: string | undefined;
    for (let round = 0; round < 20; round += 1) {
      const res = await h.call('GET', after === undefined ? url : `${url}&after=${encodeURIComponent(after)}`, token);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<Page>();
      pages.push(page.data.map((row) => row.id));
      after = page.pagination.next;
      if (after === undefined) return pages;
    }
    throw new Error('the pages never ended');
  }

  it('pages contacts by cursor in the order asked, as offset pages do, and refuses a cursor that does not fit', async () => {
    const account = await sendingAccount(h.database.db);
    const { accountId } = account;
    for (let i = 0; i < 23; i += 1) await addContact(h.database.db, accountId, { lastName: `Name${String(i % 7)}` });
    const adminToken = h.tokenFor(account.adminId);
    const url = `/v1/accounts/${accountId}/contacts?limit=10&orderBy=lastName-desc`;

    const byCursor = await follow(url, adminToken);
    expect(byCursor.map((p) => p.length)).toEqual([10, 10, 3]);
    const byOffset: string[][] = [];
    for (const offset of [0, 10, 20]) {
      byOffset.push((await h.call('GET', `${url}&offset=${String(offset)}`, adminToken)).json<Page>().data.map((c) => c.id));
    }
    expect(byCursor).toEqual(byOffset);

    const first = (await h.call('GET', url, adminToken)).json<Page>();
    expect(first.pagination).toMatchObject({ totalCount: 23, offset: 0, limit: 10 });
    const next = first.pagination.next ?? '';
    // A contact added before the cursor's row does not shift the next page.
    await addContact(h.database.db, accountId, { lastName: 'Zzz' });
    expect((await h.call('GET', `${url}&after=${encodeURIComponent(next)}`, adminToken)).json<Page>().data.map((c) => c.id)).toEqual(byCursor[1]);

    const refused = async (query: string) => {
      const res = await h.call('GET', `/v1/accounts/${accountId}/contacts?limit=10&${query}`, adminToken);
      expect(res.statusCode, query).toBe(400);
      return res.json<{ error: { message: string } }>().error.message;
    };
    expect(await refused(`orderBy=lastName-asc&after=${encodeURIComponent(next)}`)).toContain(CURSOR_INVALID_MESSAGE);
    expect(await refused(`orderBy=lastName-desc&after=${encodeURIComponent(`${next}x`)}`)).toContain('after:');
    expect(await refused(`orderBy=lastName-desc&offset=10&after=${encodeURIComponent(next)}`)).toContain(CURSOR_WITH_OFFSET_MESSAGE);
  });

  it('pages messages by cursor, newest first, only those the caller sees', async () => {
    const account = await sendingAccount(h.database.db);
    const conversation = await addConversation(h.database.db, account);
    const base = Date.now() - 60_000;
    // Some share a time, so the id breaks the ties.
    for (let i = 0; i < 12; i += 1) {
      await addMessage(h.database.db, account, conversation, { createdAt: new Date(base + Math.floor(i / 3) * 1000) });
    }
    const url = `/v1/accounts/${account.accountId}/messages?limit=5`;
    const pages = await follow(url, h.tokenFor(account.adminId));
    expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
    const all = (await h.call('GET', `/v1/accounts/${account.accountId}/messages?limit=100`, h.tokenFor(account.adminId))).json<Page>();
    expect(pages.flat()).toEqual(all.data.map((m) => m.id));
    expect(all.pagination.next).toBeUndefined();
    // Another account's member does not reach this list, with or without a cursor.
    const cursor = (await h.call('GET', url, h.tokenFor(account.adminId))).json<Page>().pagination.next ?? '';
    const outsider = tokens.Administrator;
    expect((await h.call('GET', `${url}&after=${encodeURIComponent(cursor)}`, outsider)).statusCode).toBe(404);
    expect(fixtures.accountId).not.toBe(account.accountId);
  });
});
