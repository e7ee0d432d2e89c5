import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, type Resolver } from '../../../platform/net/addressPolicy.js';
import { allowedHostsFrom } from '../../../platform/net/allowedHosts.js';
import { createGuardedFetch, GuardedFetchError } from '../../../platform/net/guardedFetch.js';
import { pageHubSpotContacts } from './hubspotApi.js';
import { exchangeHubSpotCode } from './hubspotOAuth.js';
import { HubSpotPeer, peerFetch } from './test/hubspotPeer.js';

const peer = new HubSpotPeer();
// A HubSpot host name that resolves to the peer's loopback address: what the guarded lookup must catch.
const resolver: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
const agent = (allowed: string[]): http.Agent => new http.Agent({ lookup: guardedLookup(allowedHostsFrom(allowed), resolver) });
let accessToken = '';

beforeAll(async () => {
  await peer.start();
  const app = peer.app();
  accessToken = (await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri))).accessToken;
});
afterAll(() => peer.stop());

describe('HubSpot through the guarded lookup', () => {
  const apiBaseUrl = (): string => peer.base.replace('127.0.0.1', 'hubspot.test');

  it('refuses a HubSpot host that resolves to a private address', async () => {
    await expect(pageHubSpotContacts({ apiBaseUrl: apiBaseUrl(), accessToken, httpAgent: agent([]) }, null)).rejects.toThrow(/not a public address/);
    const app = { ...peer.app(), apiBaseUrl: apiBaseUrl() };
    const guarded = createGuardedFetch({ resolve: resolver });
    await expect(exchangeHubSpotCode(guarded, app, peer.issueCode(app.redirectUri))).rejects.toBeInstanceOf(GuardedFetchError);
  });

  it('reaches it when the operator allows the host', async () => {
    await expect(pageHubSpotContacts({ apiBaseUrl: apiBaseUrl(), accessToken, httpAgent: agent(['hubspot.test']) }, null)).resolves.toEqual({ items: [], after: null });
    const app = { ...peer.app(), apiBaseUrl: apiBaseUrl() };
    const guarded = createGuardedFetch({ resolve: resolver, allowedHosts: ['hubspot.test'] });
    await expect(exchangeHubSpotCode(guarded, app, peer.issueCode(app.redirectUri))).resolves.toMatchObject({ hubId: String(peer.hubId) });
  });
});
