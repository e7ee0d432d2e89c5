import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Integration, IntegrationSync, Role } from '@parley/shared';
import { contacts, integrationActivities } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { mailsTo } from '../../../test/mail.js';
import { uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { createContact, updateContact } from '../../contacts/index.js';
import { IntegrationActivitySubscriber } from '../activitySubscriber.js';
import { changedInParleyReason, NO_MOBILE_REASON, sameMobileReason } from '../contactSync.js';
import { AC_API_URL, startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import type { PeerContact } from './test/activeCampaignPeer.js';
import { users } from '../../../platform/db/schema/index.js';
import { OutboxDispatcher } from '../../../platform/events/outboxDispatcher.js';
import { publishEvent } from '../../../platform/events/outbox.js';
import { silentLogger } from '../../../test/logger.js';

interface Account {
  accountId: string;
  users: Record<Role, string>;
  tokens: Record<Role, string>;
}

describe.each(testDatabaseKinds)('ActiveCampaign sync (%s)', (kind) => {
  let h: IntegrationHarness;
  beforeAll(async () => {
    h = await startIntegrationHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  const url = (accountId: string, path = ''): string => `/v1/accounts/${accountId}/integrations/activecampaign${path}`;

  async function connected(): Promise<Account> {
    const account = await h.account();
    // Each test has contacts of its own at the peer.
    h.peer.contacts.length = 0;
    h.peer.tags.length = 0;
    h.peer.contactTags.length = 0;
    h.peer.notes.length = 0;
    h.peer.apiKey = 'ac-test-key';
    const res = await h.call('POST', url(account.accountId, '/connect'), account.tokens.Administrator, { apiUrl: AC_API_URL, apiKey: h.peer.apiKey });
    expect(res.statusCode).toBe(200);
    return account;
  }

  /** Starts a sync through the route and runs its job until it no longer waits on a 429 (each 429 once). */
  async function synchronize(account: Account, path = '/synchronize'): Promise<IntegrationSync> {
    const res = await h.call('POST', url(account.accountId, path), account.tokens.Administrator);
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ data: IntegrationSync }>().data;
    await h.run(h.syncJob, { syncId: id });
    return syncOf(account, id);
  }

  async function syncOf(account: Account, id: string): Promise<IntegrationSync> {
    const page = (await h.call('GET', url(account.accountId), account.tokens.ReadOnly)).json<{ data: Integration }>().data;
    const sync = [page.syncs.contacts, page.syncs.tags].find((s) => s?.id === id);
    if (sync === undefined) throw new Error('sync not on the page');
    return sync;
  }

  const peerContact = (n: number, overrides: Partial<PeerContact> = {}): PeerContact => ({
    id: String(n),
    email: `c${String(n)}@ac.example`,
    firstName: `First${String(n)}`,
    lastName: `Last${String(n)}`,
    phone: uniqueTestNumber(),
    ...overrides,
  });

  const contactsOf = (accountId: string) => h.database.db.select().from(contacts).where(eq(contacts.accountId, accountId));

  it('syncs two pages with a 429 between them: waits without a worker, resumes at the second page, no duplicates', async () => {
    const account = await connected();
    const existing = await createContact(h.database.db, account.accountId, { firstName: '', lastName: '', mobile: { number: uniqueTestNumber(), country: undefined }, tags: [], attributes: {} });
    h.peer.contacts.push(...Array.from({ length: 148 }, (_, i) => peerContact(i + 1)));
    h.peer.contacts.push(peerContact(149, { phone: existing.contact.mobileNumber, firstName: 'Existing' }));
    h.peer.contacts.push(peerContact(150, { phone: '' }));
    h.peer.contacts.push(peerContact(151, { phone: h.peer.contacts[0]?.phone ?? '' }));
    h.peer.throttleNext('/api/3/contacts', 30, 1);

    const res = await h.call('POST', url(account.accountId, '/synchronize'), account.tokens.Administrator);
    const { id } = res.json<{ data: IntegrationSync }>().data;
    await h.run(h.syncJob, { syncId: id });
    const waiting = await syncOf(account, id);
    expect(waiting).toMatchObject({ status: 'waiting', progress: { done: 100, total: 151 }, created: 100 });
    expect(waiting.resumeAt).toBeDefined();
    const again = (await h.queued('integrations.sync')).filter((j) => j.data.syncId === id);
    // The queued job of the route, and the one sent again for after the Retry-After.
    expect(again.length).toBe(2);
    expect(Math.max(...again.map((j) => new Date(j.start_after).getTime()))).toBeGreaterThan(Date.now() + 20_000);

    await h.run(h.syncJob, { syncId: id });
    const done = await syncOf(account, id);
    expect(done).toMatchObject({ status: 'completed', progress: { done: 151, total: 151 }, created: 148, updated: 1, skipped: 2 });
    expect(done.skippedReasons).toEqual([
      { reason: NO_MOBILE_REASON, count: 1, examples: ['First150 Last150'] },
      { reason: sameMobileReason('activecampaign'), count: 1, examples: ['First151 Last151'] },
    ]);
    const contactRequests = h.peer.requests.filter((r) => r.startsWith('GET /api/3/contacts?'));
    expect(contactRequests).toEqual([
      'GET /api/3/contacts?limit=100&offset=0',
      'GET /api/3/contacts?limit=100&offset=100',
      'GET /api/3/contacts?limit=100&offset=100',
    ]);
    const rows = await contactsOf(account.accountId);
    expect(rows.length).toBe(149);
    expect(rows.find((r) => r.id === existing.contact.id)).toMatchObject({ firstName: 'Existing', lastName: 'Last149', email: 'c149@ac.example' });

    // A second sync finds them all: nothing created again.
    const second = await synchronize(account);
    expect(second).toMatchObject({ status: 'completed', created: 0, updated: 0, skipped: 2 });
    expect((await contactsOf(account.accountId)).length).toBe(149);
  });

  it('never overwrites a field changed in Parley since the last sync, and says so', async () => {
    const account = await connected();
    h.peer.contacts.push(peerContact(1), peerContact(2));
    expect(await synchronize(account)).toMatchObject({ created: 2 });
    const [one, two] = h.peer.contacts;
    const rowOf = async (phone: string) => (await contactsOf(account.accountId)).find((r) => r.mobileNumber === phone);
    const parleyOne = await rowOf(one?.phone ?? '');
    await updateContact(h.database.db, account.accountId, parleyOne?.id ?? '', { firstName: 'Changed in Parley' });
    Object.assign(one ?? {}, { firstName: 'Changed in AC', lastName: 'New last' });
    Object.assign(two ?? {}, { lastName: 'Renamed in AC' });

    const sync = await synchronize(account);
    expect(sync).toMatchObject({ status: 'completed', created: 0, updated: 1, skipped: 1 });
    expect(sync.skippedReasons).toEqual([{ reason: changedInParleyReason(['firstName']), count: 1, examples: ['Changed in AC New last'] }]);
    expect(await rowOf(one?.phone ?? '')).toMatchObject({ firstName: 'Changed in Parley', lastName: 'New last' });
    expect(await rowOf(two?.phone ?? '')).toMatchObject({ firstName: 'First2', lastName: 'Renamed in AC' });
    // Still Parley's at the next sync, still said.
    expect(await synchronize(account)).toMatchObject({ skipped: 1, updated: 0 });
  });

  it('synchronizes tags onto the synchronized contacts, and puts the import tag on them', async () => {
    const account = await connected();
    expect((await h.call('PUT', url(account.accountId, '/properties'), account.tokens.Administrator, { importTag: 'ActiveCampaign' })).statusCode).toBe(200);
    h.peer.contacts.push(peerContact(1), peerContact(2));
    h.peer.tags.push({ id: '10', tag: 'VIP' }, { id: '11', tag: 'Newsletter' });
    h.peer.contactTags.push({ contact: '1', tag: '10' }, { contact: '1', tag: '11' }, { contact: '2', tag: '11' }, { contact: '99', tag: '10' });
    await synchronize(account);
    const tags = await synchronize(account, '/synchronizetags');
    expect(tags).toMatchObject({ kind: 'tags', status: 'completed', updated: 2, skipped: 1 });
    const rows = await contactsOf(account.accountId);
    expect(rows.map((r) => [...r.tags].sort()).sort()).toEqual([
      ['ActiveCampaign', 'Newsletter'],
      ['ActiveCampaign', 'Newsletter', 'VIP'],
    ]);
  });

  it('records a message sent and one received as notes on the ActiveCampaign contact', async () => {
    const account = await connected();
    h.peer.contacts.push(peerContact(7, { firstName: 'Nora', lastName: 'Note' }), peerContact(8));
    await synchronize(account);
    const linked = (await contactsOf(account.accountId)).find((r) => r.firstName === 'Nora');
    // A contact the sync never saw, found at the provider by its mobile.
    h.peer.contacts.push(peerContact(9, { phone: uniqueTestNumber() }));
    const fresh = await createContact(h.database.db, account.accountId, { firstName: 'Fresh', lastName: '', mobile: { number: h.peer.contacts[2]?.phone ?? '', country: undefined }, tags: [], attributes: {} });
    const subscriber = new IntegrationActivitySubscriber(h.deps.jobs, h.activityJob);
    const event = (id: string, contactId: string, direction: 'inbound' | 'outbound', text: string) => ({
      id,
      type: direction === 'outbound' ? 'messageSent' : 'messageReceived',
      accountId: account.accountId,
      userId: null,
      groupId: null,
      createdAt: new Date().toISOString(),
      data: { message: { id: crypto.randomUUID(), contact: { id: contactId }, message: text, direction, created: { at: '2026-12-02T10:00:00.000Z' } } },
    });
    await h.database.db.transaction(async (tx) => {
      await subscriber.deliver(event(`e1-${account.accountId}`, linked?.id ?? '', 'outbound', 'Your order shipped'));
      await subscriber.deliver(event(`e2-${account.accountId}`, linked?.id ?? '', 'inbound', 'Thanks!'));
      await subscriber.deliver(event(`e3-${account.accountId}`, fresh.contact.id, 'outbound', 'Hello fresh'));
      await subscriber.beforeCommit(tx);
    });
    await subscriber.flush();
    await h.run(h.activityJob, {});
    expect(h.peer.notes).toEqual([
      { id: '1', relid: '7', reltype: 'Subscriber', note: 'SMS sent to Nora Note (2026-12-02T10:00:00.000Z):\nYour order shipped' },
      { id: '2', relid: '7', reltype: 'Subscriber', note: 'SMS received from Nora Note (2026-12-02T10:00:00.000Z):\nThanks!' },
      { id: '3', relid: '9', reltype: 'Subscriber', note: 'SMS sent to Fresh (2026-12-02T10:00:00.000Z):\nHello fresh' },
    ]);
    const statuses = await h.database.db.select({ status: integrationActivities.status }).from(integrationActivities).where(eq(integrationActivities.accountId, account.accountId));
    expect(statuses.map((s) => s.status)).toEqual(['recorded', 'recorded', 'recorded']);

    // Turned off in the properties: nothing more is gathered.
    await h.call('PUT', url(account.accountId, '/properties'), account.tokens.Administrator, { recordMessages: false });
    await h.database.db.transaction(async (tx) => {
      await subscriber.deliver(event(`e4-${account.accountId}`, linked?.id ?? '', 'outbound', 'Not recorded'));
      await subscriber.beforeCommit(tx);
    });
    const after = await h.database.db.select().from(integrationActivities).where(and(eq(integrationActivities.accountId, account.accountId), eq(integrationActivities.eventId, `e4-${account.accountId}`)));
    expect(after).toEqual([]);
  });

  it('takes sent messages from the outbox of connected accounts only, waits out a 429, and a refused key stops it', async () => {
    const account = await connected();
    const quiet = await h.account();
    h.peer.contacts.push(peerContact(5, { firstName: 'Otto', lastName: 'Box' }));
    await synchronize(account);
    const otto = (await contactsOf(account.accountId)).find((r) => r.firstName === 'Otto');
    const subscriber = new IntegrationActivitySubscriber(h.deps.jobs, h.activityJob);
    const dispatcher = new OutboxDispatcher(h.database, [subscriber], silentLogger());
    const sent = (accountId: string, text: string) =>
      publishEvent(h.database.db, {
        type: 'messageSent',
        accountId,
        groupId: null,
        data: { message: { id: crypto.randomUUID(), contact: { id: otto?.id ?? crypto.randomUUID() }, message: text, direction: 'outbound', created: { at: '2026-12-02T11:00:00.000Z' } } },
      });
    await sent(account.accountId, 'Your table is ready');
    await sent(quiet.accountId, 'Not connected anywhere');
    while (await dispatcher.dispatchOnce());
    const pending = await h.database.db.select().from(integrationActivities).where(eq(integrationActivities.accountId, account.accountId));
    expect(pending.map((r) => [r.status, 'text' in r.data ? r.data.text : null])).toEqual([['pending', 'Your table is ready']]);
    expect(await h.database.db.select().from(integrationActivities).where(eq(integrationActivities.accountId, quiet.accountId))).toEqual([]);

    h.peer.throttleNext('/api/3/notes', 45);
    await h.run(h.activityJob, {});
    expect(h.peer.notes).toEqual([]);
    const [waiting] = await h.database.db.select().from(integrationActivities).where(eq(integrationActivities.accountId, account.accountId));
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    const later = (await h.queued('integrations.activities')).map((j) => new Date(j.start_after).getTime());
    expect(Math.max(...later)).toBeGreaterThan(Date.now() + 30_000);
    await h.run(h.activityJob, {});
    expect(h.peer.notes.map((n) => [n.relid, n.note])).toEqual([['5', 'SMS sent to Otto Box (2026-12-02T11:00:00.000Z):\nYour table is ready']]);

    h.peer.apiKey = 'revoked';
    await sent(account.accountId, 'After the key was revoked');
    while (await dispatcher.dispatchOnce());
    await h.run(h.activityJob, {});
    const rows = await h.database.db.select().from(integrationActivities).where(eq(integrationActivities.accountId, account.accountId));
    expect(rows.map((r) => r.status).sort()).toEqual(['failed', 'recorded']);
    expect((await h.call('GET', url(account.accountId), account.tokens.ReadOnly)).json()).toMatchObject({ data: { status: 'error', errorReason: 'ActiveCampaign refused the API key' } });
  });

  it('a key ActiveCampaign refuses puts the integration in error and tells the administrators once', async () => {
    const account = await connected();
    h.peer.contacts.push(peerContact(1));
    h.peer.apiKey = 'rotated-at-activecampaign';
    const sync = await synchronize(account);
    expect(sync).toMatchObject({ status: 'failed', error: 'ActiveCampaign refused the API key' });
    const page = (await h.call('GET', url(account.accountId), account.tokens.ReadOnly)).json<{ data: Integration }>().data;
    expect(page).toMatchObject({ status: 'error', errorReason: 'ActiveCampaign refused the API key' });
    const [admin] = await h.database.db.select({ email: users.email }).from(users).where(eq(users.id, account.users.Administrator));
    const [sender] = await h.database.db.select({ email: users.email }).from(users).where(eq(users.id, account.users.Sender));
    const mails = await mailsTo(h.database.db, admin?.email ?? '');
    expect(mails.length).toBe(1);
    expect(mails[0]?.subject).toMatch(/^ActiveCampaign needs to be connected again for /);
    expect(await mailsTo(h.database.db, sender?.email ?? '')).toEqual([]);
    // No sync while in error; connecting again with the new key clears it.
    expect((await h.call('POST', url(account.accountId, '/synchronize'), account.tokens.Administrator)).statusCode).toBe(409);
    const again = await h.call('POST', url(account.accountId, '/connect'), account.tokens.Administrator, { apiUrl: AC_API_URL, apiKey: h.peer.apiKey });
    expect(again.json()).toMatchObject({ data: { status: 'connected' } });
    expect(again.json<{ data: Integration }>().data.errorReason).toBeUndefined();
  });
});
