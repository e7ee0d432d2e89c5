import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubSpotContact, type HubSpotContact, logHubSpotCommunication, pageHubSpotContacts } from './hubspotApi.js';
import type { HubSpotConnection } from './hubspotClient.js';
import { HubSpotAuthError, HubSpotRateLimited, HubSpotRequestError } from './hubspotErrors.js';
import { exchangeHubSpotCode } from './hubspotOAuth.js';
import { HubSpotPeer, peerFetch } from './test/hubspotPeer.js';

const peer = new HubSpotPeer();
let connection: HubSpotConnection;

beforeAll(async () => {
  await peer.start();
  for (let i = 1; i <= 250; i += 1) {
    peer.addContact({ firstname: `First${String(i)}`, lastname: `Last${String(i)}`, email: `c${String(i)}@acme.example`, phone: i % 2 === 0 ? `+1415555${String(i).padStart(4, '0')}` : null, mobilephone: i % 3 === 0 ? `+1628555${String(i).padStart(4, '0')}` : null });
  }
  const app = peer.app();
  const grant = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri));
  connection = { apiBaseUrl: `${peer.base}/`, accessToken: grant.accessToken };
});
afterAll(() => peer.stop());

describe('HubSpot contacts', () => {
  it('pages every contact across three pages by the after cursor, with the properties a sync reads', async () => {
    const seen: HubSpotContact[] = [];
    const cursors: (string | null)[] = [];
    let after: string | null = null;
    do {
      const page = await pageHubSpotContacts(connection, after);
      seen.push(...page.items);
      after = page.after;
      cursors.push(after);
    } while (after !== null);
    expect(cursors).toEqual(['100', '200', null]);
    expect(seen).toHaveLength(250);
    expect(new Set(seen.map((c) => c.id)).size).toBe(250);
    expect(seen[5]?.properties).toMatchObject({ firstname: 'First6', lastname: 'Last6', email: 'c6@acme.example', phone: '+14155550006', mobilephone: '+16285550006' });
    expect(seen[0]?.properties).toMatchObject({ phone: null, mobilephone: null });
    expect(seen[0]?.properties.hs_lastmodifieddate).toMatch(/^\d{4}-/);
    expect(peer.userAgents.at(-1)).toMatch(/^hubspot-api-client-nodejs; 13\./);
  });

  it('creates a Parley contact in HubSpot with its mobile in the chosen property', async () => {
    const created = await createHubSpotContact(connection, { mobile: '+14155550199', mobileProperty: 'mobilephone', firstName: 'Ada', lastName: null, email: 'ada@acme.example' });
    const held = peer.contacts.find((c) => c.id === created.id);
    expect(held?.properties).toMatchObject({ mobilephone: '+14155550199', firstname: 'Ada', email: 'ada@acme.example' });
    expect(held?.properties).not.toHaveProperty('lastname');
    await expect(createHubSpotContact(connection, { mobile: '+14155550198', mobileProperty: 'phone', firstName: null, lastName: null, email: 'ada@acme.example' })).rejects.toMatchObject({ name: 'HubSpotRequestError', status: 409 });
  });
});

describe('HubSpot timeline', () => {
  it('logs a message as an SMS communication associated to the contact', async () => {
    const contactId = peer.contacts[0]?.id ?? '';
    const logged = await logHubSpotCommunication(connection, { contactId, body: 'Sent to +14155550100: See you at 3', at: new Date('2026-12-02T12:00:00.000Z') });
    const held = peer.communications.find((c) => c.id === logged.id);
    expect(held?.properties).toEqual({ hs_communication_channel_type: 'SMS', hs_communication_logged_from: 'CRM', hs_communication_body: 'Sent to +14155550100: See you at 3', hs_timestamp: '2026-12-02T12:00:00.000Z' });
    expect(held?.associations).toEqual([{ to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 81 }] }]);
    expect(held?.token).toBe(connection.accessToken);
  });

  it('refuses a communication for a contact HubSpot does not have', async () => {
    const refused = logHubSpotCommunication(connection, { contactId: '999999', body: 'x', at: new Date() });
    await expect(refused).rejects.toBeInstanceOf(HubSpotRequestError);
    await expect(refused).rejects.toMatchObject({ status: 400 });
  });
});

describe('HubSpot refusals', () => {
  it('answers a 429 as HubSpotRateLimited with the Retry-After delay, without retrying it', async () => {
    peer.rateLimitOnce(7);
    const refused = await pageHubSpotContacts(connection, null).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HubSpotRateLimited);
    expect((refused as HubSpotRateLimited).retryAfterMs).toBe(7000);
    await expect(pageHubSpotContacts(connection, null)).resolves.toMatchObject({ after: '100' });
  });

  it('answers a bad or expired token as HubSpotAuthError', async () => {
    await expect(pageHubSpotContacts({ ...connection, accessToken: 'access-forged' }, null)).rejects.toMatchObject({ name: 'HubSpotAuthError', status: 401, reason: 'Authentication credentials not found.' });
    const app = peer.app();
    const grant = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri));
    peer.expire(grant.accessToken);
    const expired = logHubSpotCommunication({ ...connection, accessToken: grant.accessToken }, { contactId: peer.contacts[0]?.id ?? '', body: 'x', at: new Date() });
    await expect(expired).rejects.toBeInstanceOf(HubSpotAuthError);
    await expect(expired).rejects.toMatchObject({ reason: 'The OAuth token used to make this call expired.' });
  });
});

describe('the local HubSpot, driven from another process', () => {
  const control = async (path: string, body: unknown = {}): Promise<unknown> => (await fetch(`${peer.base}/peer/${path}`, { method: 'POST', body: JSON.stringify(body) })).json();

  it('adds contacts, limits the next call and answers what was logged', async () => {
    const [added] = (await control('contacts', { contacts: [{ properties: { firstname: 'Grace', mobilephone: '+14155550142' } }] })) as { id: string }[];
    await control('ratelimit', { retryAfterSeconds: 2 });
    await expect(pageHubSpotContacts(connection, null)).rejects.toMatchObject({ retryAfterMs: 2000 });
    await logHubSpotCommunication(connection, { contactId: added?.id ?? '', body: 'Received from +14155550142: hi', at: new Date() });
    const records = (await control('records')) as { communications: { associations: { to: { id: string } }[] }[] };
    expect(records.communications.at(-1)?.associations[0]?.to.id).toBe(added?.id);
  });
});
