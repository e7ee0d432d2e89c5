import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubSpotConnection } from './hubspotClient.js';
import { HubSpotAuthError, HubSpotRequestError } from './hubspotErrors.js';
import { type HubSpotList, pageHubSpotListMembers, pageHubSpotLists } from './hubspotLists.js';
import { exchangeHubSpotCode } from './hubspotOAuth.js';
import { HubSpotPeer, peerFetch } from './test/hubspotPeer.js';

const peer = new HubSpotPeer();
let connection: HubSpotConnection;

beforeAll(async () => {
  await peer.start();
  const ids = Array.from({ length: 7 }, (_, i) => peer.addContact({ firstname: `C${String(i)}` }).id);
  peer.addList('Customers', ids.slice(0, 5));
  peer.addList('Target accounts', ['77'], '0-2');
  peer.addList('Newsletter', ids.slice(3));
  peer.addList('Empty', []);
  const app = peer.app();
  connection = { apiBaseUrl: peer.base, accessToken: (await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri))).accessToken };
});
afterAll(() => peer.stop());

describe('HubSpot lists as tags', () => {
  it('pages the contact lists by offset and leaves lists of other objects out', async () => {
    const lists: HubSpotList[] = [];
    const offsets: (number | null)[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await pageHubSpotLists(connection, offset, 2);
      lists.push(...page.items);
      offset = page.nextOffset;
      offsets.push(offset);
    }
    expect(offsets).toEqual([2, null]);
    expect(lists.map((l) => l.name)).toEqual(['Customers', 'Newsletter', 'Empty']);
  });

  it("pages a list's members by the after cursor", async () => {
    const list = peer.lists[0];
    const members: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await pageHubSpotListMembers(connection, list?.listId ?? '', after, 2);
      members.push(...page.items);
      after = page.after;
      pages += 1;
    } while (after !== null);
    expect(pages).toBe(3);
    expect(members).toEqual(list?.members);
    await expect(pageHubSpotListMembers(connection, peer.lists[3]?.listId ?? '', null)).resolves.toEqual({ items: [], after: null });
  });

  it('refuses an unknown list and a bad token', async () => {
    await expect(pageHubSpotListMembers(connection, '424242', null)).rejects.toBeInstanceOf(HubSpotRequestError);
    await expect(pageHubSpotLists({ ...connection, accessToken: 'nope' }, 0)).rejects.toBeInstanceOf(HubSpotAuthError);
  });
});
