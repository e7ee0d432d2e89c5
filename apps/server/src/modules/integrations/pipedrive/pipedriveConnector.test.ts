import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { contacts } from '../../../platform/db/schema/index.js';
import type { Integration, IntegrationSync } from '@parley/shared';
import { testDatabaseKinds } from '../../../test/databases.js';
import { uniqueTestNumber } from '../../../test/phoneNumbers.js';
import type { MessageActivity } from '../connector.js';
import { OAUTH_STATE_INVALID_MESSAGE } from '../oauthCommands.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { pipedriveConnector } from './pipedriveConnector.js';
import { PIPEDRIVE_API_DOMAIN_REFUSED } from './pipedriveOAuth.js';
import { connectPipedrive, peerPerson, pipedriveEnv, pipedriveSession } from './test/pipedriveFixtures.js';
import { startPipedrivePeer, type PipedrivePeer } from './test/pipedrivePeer.js';

const JWT_SECRET = 'pipedrive-jwt-secret-for-tests';

const jwt = (secret: string, claims: Record<string, unknown>, expires: string | number = '5m'): Promise<string> =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expires).sign(new TextEncoder().encode(secret));

describe.each(testDatabaseKinds)('Pipedrive connector (%s)', (kind) => {
  let h: IntegrationHarness;
  let peer: PipedrivePeer;
  beforeAll(async () => {
    peer = await startPipedrivePeer();
    h = await startIntegrationHarness(kind, pipedriveEnv(peer, JWT_SECRET));
  });
  afterAll(async () => {
    await h.close();
    await peer.close();
  });

  const page = 'http://parley.test/integrations/pipedrive';
  const url = (accountId: string, path = ''): string => `/v1/accounts/${accountId}/integrations/pipedrive${path}`;
  const read = async (accountId: string, token: string): Promise<Integration> => (await h.call('GET', url(accountId), token)).json<{ data: Integration }>().data;

  async function connected(): Promise<{ accountId: string; token: string }> {
    const { accountId, tokens } = await h.account();
    expect(await connectPipedrive(h, accountId, tokens.Administrator)).toBe(page);
    return { accountId, token: tokens.Administrator };
  }

  it('connects through OAuth as the company; refuses a tampered state and an api_domain outside the base; disconnects', async () => {
    const { accountId, tokens } = await h.account();
    expect(await connectPipedrive(h, accountId, tokens.Administrator, true)).toBe(`${page}?error=${encodeURIComponent(OAUTH_STATE_INVALID_MESSAGE)}`);
    peer.apiDomain = 'https://acme.evil.example';
    try {
      expect(await connectPipedrive(h, accountId, tokens.Administrator)).toBe(`${page}?error=${encodeURIComponent(PIPEDRIVE_API_DOMAIN_REFUSED)}`);
    } finally {
      peer.apiDomain = peer.url;
    }
    expect((await read(accountId, tokens.ReadOnly)).status).toBe('notConnected');

    expect(await connectPipedrive(h, accountId, tokens.Administrator)).toBe(page);
    const integration = await read(accountId, tokens.ReadOnly);
    expect(integration).toMatchObject({ status: 'connected', auth: 'oauth', connection: { company: 'Acme Ltd', companyId: '4242', companyDomain: 'acme' } });
    expect(JSON.stringify(integration)).not.toContain(peer.accessToken);

    const gone = await h.call('DELETE', url(accountId, '/disconnect'), tokens.Administrator);
    expect(gone.json<{ data: Integration }>().data.status).toBe('notConnected');
    expect(peer.requests.at(-1)).toBe('POST /oauth/revoke');
  });

  it('syncs persons page by cursor, waits out a 429, takes the mobile or primary phone', async () => {
    const { accountId, token } = await connected();
    peer.persons.length = 0;
    peer.persons.push(...Array.from({ length: 148 }, (_, i) => peerPerson(i + 1)));
    const work = uniqueTestNumber();
    peer.persons.push(peerPerson(149, { phones: [{ value: uniqueTestNumber(), primary: false, label: 'work' }, { value: work, primary: true, label: 'home' }] }));
    peer.persons.push(peerPerson(150, { phones: [] }));
    peer.throttleNext('/api/v2/persons', 30, 1);

    const res = await h.call('POST', url(accountId, '/synchronize'), token);
    const { id } = res.json<{ data: IntegrationSync }>().data;
    await h.run(h.syncJob, { syncId: id });
    expect((await read(accountId, token)).syncs.contacts).toMatchObject({ status: 'waiting', created: 100 });
    await h.run(h.syncJob, { syncId: id });
    expect((await read(accountId, token)).syncs.contacts).toMatchObject({ status: 'completed', created: 149, skipped: 1 });
    const pages = peer.requests.filter((r) => r.startsWith('GET /api/v2/persons?'));
    expect(pages.length).toBe(3);
    expect(pages[2]).toBe(pages[1]);
    expect(pages[1]).toMatch(/cursor=/);
    const contacts = await h.call('GET', `/v1/accounts/${accountId}/contacts?search=${encodeURIComponent(work.slice(2))}`, token);
    expect(contacts.body).toContain('First149');
  });

  it('records a message as a done call activity, as a note, or not at all', async () => {
    const { accountId, token } = await connected();
    const mobile = uniqueTestNumber();
    peer.persons.push(peerPerson(900, { phones: [{ value: `(${mobile.slice(2, 5)}) ${mobile.slice(5, 8)}-${mobile.slice(8)}`, primary: true, label: 'mobile' }] }));
    const message: MessageActivity = { direction: 'outbound', text: 'Hello <there>', at: '2026-12-01T10:00:00.000Z', contact: { mobile, firstName: 'Ann', lastName: 'Lee' }, externalId: null };
    const record = async (timelineType: string, activity: MessageActivity): Promise<string | null> => {
      expect((await h.call('PUT', url(accountId, '/properties'), token, { timelineType })).statusCode).toBeLessThan(300);
      return (pipedriveConnector.recordMessage ?? (() => Promise.resolve(null)))(await pipedriveSession(h, accountId), activity);
    };

    expect(await record('activity', message)).toBe('900');
    expect(peer.activities.at(-1)).toMatchObject({ type: 'call', done: true, person_id: 900, subject: 'SMS sent to Ann Lee', note: 'Hello &lt;there&gt;' });
    expect(await record('note', { ...message, direction: 'inbound', externalId: '900' })).toBe('900');
    expect(peer.notes.at(-1)).toMatchObject({ person_id: 900 });
    expect(peer.notes.at(-1)?.content).toContain('SMS received from Ann Lee');
    const before = peer.requests.length;
    expect(await record('disabled', { ...message, externalId: '900' })).toBe('900');
    expect(peer.requests.length).toBe(before);
    expect(await record('note', { ...message, contact: { ...message.contact, mobile: uniqueTestNumber() } })).toBeNull();
  });

  it('pushes a contact: the person Pipedrive has under that mobile, else a new one', async () => {
    const { accountId } = await connected();
    const push = pipedriveConnector.pushContact;
    if (push === undefined) throw new Error('no pushContact');
    const session = await pipedriveSession(h, accountId);
    const known = uniqueTestNumber();
    peer.persons.push(peerPerson(950, { phones: [{ value: known, primary: true, label: 'mobile' }] }));
    expect(await push(session, { mobile: known, firstName: 'Kim', lastName: 'Known', email: '' })).toBe('950');
    const fresh = uniqueTestNumber();
    const id = await push(session, { mobile: fresh, firstName: 'Nia', lastName: 'New', email: 'nia@example.com' });
    expect(peer.persons.find((p) => String(p.id) === id)).toMatchObject({ name: 'Nia New', phones: [{ value: fresh, primary: true, label: 'mobile' }], emails: [{ value: 'nia@example.com' }] });
    expect(peer.persons.filter((p) => p.phones.some((ph) => ph.value === known))).toHaveLength(1);
  });

  it('sends a signed action from a person or a deal to a new message to its mobile; refuses a forged or expired one', async () => {
    const { accountId } = await connected();
    const mobile = uniqueTestNumber();
    peer.persons.push(peerPerson(700, { first_name: 'Dee', last_name: 'Deal', phones: [{ value: mobile, primary: true, label: 'mobile' }] }));
    peer.deals.push({ id: 70, person_id: 700 });
    const action = async (query: Record<string, string>) => h.app.inject({ method: 'GET', url: `/v1/integrations/pipedrive/action?${new URLSearchParams(query).toString()}` });
    const company = { companyId: 4242, userId: 1 };
    const selection = { resource: 'person', view: 'details', selectedIds: '700', companyId: '4242', userId: '1' };

    const fromPerson = await action({ ...selection, token: await jwt(JWT_SECRET, company) });
    expect(fromPerson.statusCode).toBe(302);
    const [contact] = await h.database.db.select().from(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.mobileNumber, mobile)));
    expect(contact).toMatchObject({ firstName: 'Dee', lastName: 'Deal' });
    expect(fromPerson.headers.location).toBe(`http://parley.test/conversations?sendMessage=1&account=${accountId}&contact=${contact?.id ?? ''}`);
    const fromDeal = await action({ ...selection, resource: 'deal', selectedIds: '70', token: await jwt(JWT_SECRET, company) });
    expect(fromDeal.headers.location).toBe(fromPerson.headers.location);

    const forged = await action({ ...selection, token: await jwt('another-secret-of-enough-length', company) });
    const expired = await action({ ...selection, token: await jwt(JWT_SECRET, company, Math.floor(Date.now() / 1000) - 60) });
    const otherCompany = await action({ ...selection, companyId: '1', token: await jwt(JWT_SECRET, company) });
    expect([forged.statusCode, expired.statusCode, otherCompany.statusCode]).toEqual([401, 401, 401]);
    expect((await action({ ...selection, token: 'not.a.jwt' })).statusCode).toBe(401);
  });
});
