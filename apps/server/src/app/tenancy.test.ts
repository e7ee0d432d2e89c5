import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, capabilities, roles, type Capability } from '@parley/shared';
import type { Queryable } from '../platform/db/client.js';
import {
  accountMembers,
  autoResponders,
  billingInvoices,
  campaignJobs,
  campaigns,
  carrierSettings,
  contactGroups,
  contactImports,
  numberTypeChecks,
  contactLists,
  contacts,
  conversations,
  invitations,
  linkDomains,
  links,
  listMembers,
  notificationDeliveries,
  notifications,
  templates,
} from '../platform/db/schema/index.js';
import { routeTable, type RouteRecord } from './httpApp.js';
import { ringForwardedCall } from '../modules/carriers/index.js';
import { startApiHarness, type ApiHarness } from '../test/apiHarness.js';
import { testDatabaseKinds } from '../test/databases.js';
import { createAccount, createUser, roleFixtures } from '../test/factories.js';
import { createPhoneNumber, uniqueTestNumber } from '../test/phoneNumbers.js';
import { insertIncomingMessage } from '../test/sendingFixtures.js';

/*
 * These tests walk the app's route table, so a route added later is covered without being listed here.
 * A route they cannot classify fails them: add what it needs to the tables below.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const methods: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

async function insertList(q: Queryable, accountId: string): Promise<string> {
  const id = randomUUID();
  await q.insert(contactLists).values({ id, accountId, name: `List ${id}` });
  return id;
}

async function insertContact(q: Queryable, accountId: string): Promise<string> {
  const id = randomUUID();
  await q.insert(contacts).values({ id, accountId, mobileNumber: `+${id.replace(/\D/g, '').slice(0, 14)}`, mobileCountry: 'US' });
  return id;
}

/** For each route taking a record id: creates a record in the given account and answers its id, per parameter. */
const recordIn: Record<string, (q: Queryable, accountId: string) => Promise<Record<string, string>>> = {
  '/v1/accounts/:acc/invoices/:invoiceId/pdf': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(billingInvoices).values({
      id,
      accountId,
      provider: 'sandbox',
      providerInvoiceId: `in_${id}`,
      description: 'Top-up',
      lines: [],
      total: '10',
      status: 'paid',
      issuedAt: new Date(),
    });
    return { invoiceId: id };
  },
  '/v1/accounts/:acc/users/:id': async (q, accountId) => {
    const user = await createUser(q);
    await q.insert(accountMembers).values({ accountId, userId: user.id, role: 'Sender' });
    return { id: user.id };
  },
  '/v1/accounts/:acc/users/:id/resend': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(invitations).values({ id, accountId, email: `invited-${id}@example.test`, role: 'Sender' });
    return { id };
  },
  '/v1/accounts/:acc/lists/:listId': async (q, accountId) => ({ listId: await insertList(q, accountId) }),
  '/v1/accounts/:acc/lists/:listId/contacts': async (q, accountId) => ({ listId: await insertList(q, accountId) }),
  '/v1/accounts/:acc/lists/:listId/contacts/:contactId': async (q, accountId) => {
    const listId = await insertList(q, accountId);
    const contactId = await insertContact(q, accountId);
    await q.insert(listMembers).values({ id: randomUUID(), accountId, listId, contactId });
    return { listId, contactId };
  },
  '/v1/accounts/:acc/groups/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(contactGroups).values({ id, accountId, name: `Group ${id}` });
    return { id };
  },
  '/v1/accounts/:acc/contacts/:id': async (q, accountId) => ({ id: await insertContact(q, accountId) }),
  '/v1/accounts/:acc/contacts/:id/block': async (q, accountId) => ({ id: await insertContact(q, accountId) }),
  '/v1/accounts/:acc/contacts/:id/acceptablehours': async (q, accountId) => ({ id: await insertContact(q, accountId) }),
  '/v1/accounts/:acc/contacts/imports/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(contactImports).values({ id, accountId, fileName: 'contacts.csv', fileSize: 0, status: 'completed' });
    return { id };
  },
  '/v1/accounts/:acc/contacts/numbertypes/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(numberTypeChecks).values({ id, accountId, contactIds: [await insertContact(q, accountId)] });
    return { id };
  },
  '/v1/accounts/:acc/gdpr/download/:contactId': async (q, accountId) => ({ contactId: await insertContact(q, accountId) }),
  '/v1/accounts/:acc/gdpr/remove/:contactId': async (q, accountId) => ({ contactId: await insertContact(q, accountId) }),
  '/v1/accounts/:acc/phonenumbers/:id': async (q, accountId) => ({ id: (await createPhoneNumber(q, accountId)).id }),
  '/v1/accounts/:acc/phonenumbers/:id/verify': async (q, accountId) => ({
    id: (await createPhoneNumber(q, accountId, { status: 'unverified', hosted: true, verifiedAt: null })).id,
  }),
  ...Object.fromEntries(
    ['', '/phonenumbers'].map((action) => [
      `/v1/accounts/:acc/carriers/:id${action}`,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        const settings = { host: 'smsc.example.test', port: 2775, systemId: 'acme', tls: false };
        await q.insert(carrierSettings).values({ id, accountId, carrier: 'smpp', name: `SMSC ${id}`, settings, secret: 'v1.00000000.AAAA' });
        return { id };
      },
    ]),
  ),
  ...Object.fromEntries(
    ['', '/numbers'].map((action) => [
      `/v1/accounts/:acc/integrations/twilio/connections/:id${action}`,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        const settings = { accountSid: `AC${'0'.repeat(32)}` };
        await q.insert(carrierSettings).values({ id, accountId, carrier: 'twilio', name: `Twilio ${id}`, settings, secret: 'v1.00000000.AAAA' });
        return { id };
      },
    ]),
  ),
  '/v1/accounts/:acc/messages/:id': async (q, accountId) => ({ id: await insertIncomingMessage(q, accountId) }),
  '/v1/accounts/:acc/media/:fileId': async (q, accountId) => {
    const { mediaFiles } = await import('../platform/db/schema/index.js');
    const fileId = randomUUID();
    await q.insert(mediaFiles).values({ id: fileId, accountId, storage: 'disk', key: `${accountId}/${fileId}`, contentType: 'image/png', size: 1, source: 'upload' });
    return { fileId };
  },
  ...Object.fromEntries(
    ['', '/close', '/assigngroup', '/read', '/calls', '/screenshot'].map((action) => [
      `/v1/accounts/:acc/conversations/:id${action}`,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        await q.insert(conversations).values({ id, accountId, contactId: await insertContact(q, accountId) });
        return { id };
      },
    ]),
  ),
  ...Object.fromEntries(
    ['/v1/accounts/:acc/links/:id', '/v1/accounts/:acc/links/:id/tracking'].map((url) => [
      url,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        await q.insert(links).values({ id, accountId, name: `Link ${id}`, destinationUrl: 'https://example.test', code: id.replaceAll('-', '').slice(0, 12) });
        return { id };
      },
    ]),
  ),
  '/v1/accounts/:acc/domains/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(linkDomains).values({ id, accountId, domain: `d${id.slice(0, 8)}.example.test` });
    return { id };
  },
  '/v1/accounts/:acc/autoresponders/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(autoResponders).values({ id, accountId, match: `match ${id}`, response: 'Thanks!' });
    return { id };
  },
  ...Object.fromEntries(
    ['', '/jobs', '/preview', '/execute'].map((action) => [
      `/v1/accounts/:acc/campaigns/:id${action}`,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        await q.insert(campaigns).values({
          id,
          accountId,
          name: `Campaign ${id}`,
          messagingType: 'marketing',
          trigger: 'M',
          phoneNumberFilter: { group: randomUUID() },
          template: 'Hello',
        });
        return { id };
      },
    ]),
  ),
  ...Object.fromEntries(
    ['', '/resend'].map((action) => [
      `/v1/accounts/:acc/reports/:name/:id${action}`,
      async (q: Queryable, accountId: string) => {
        const campaignId = randomUUID();
        await q.insert(campaigns).values({
          id: campaignId,
          accountId,
          name: `Campaign ${campaignId}`,
          messagingType: 'marketing',
          trigger: 'M',
          phoneNumberFilter: { group: randomUUID() },
          template: 'Hello',
        });
        const id = randomUUID();
        await q.insert(campaignJobs).values({ id, accountId, campaignId, status: 'done', template: 'Hello', phoneNumberFilter: { group: randomUUID() } });
        return { id };
      },
    ]),
  ),
  '/v1/accounts/:acc/templates/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(templates).values({ id, accountId, name: `Template ${id}`, type: 'SMS', template: 'Hello' });
    return { id };
  },
  '/v1/accounts/:acc/notifications/:id': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(notifications).values({ id, accountId, type: 'email', destination: `n-${id}@example.test`, eventTypes: ['message-received'] });
    return { id };
  },
  ...Object.fromEntries(
    ['/deliveries', '/test', '/secret'].map((action) => [
      `/v1/accounts/:acc/notifications/:id${action}`,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        // A webhook: the secret column holds a sealed secret (any text here: the record is refused before it is read).
        await q.insert(notifications).values({ id, accountId, type: 'webhook', destination: `https://hooks.example.test/${id}`, eventTypes: ['message-received'], secret: 'sealed' });
        return { id };
      },
    ]),
  ),
  ...Object.fromEntries(
    ['', '/resend'].map((action) => [
      `/v1/accounts/:acc/notifications/:id/deliveries/:deliveryId${action}`,
      async (q: Queryable, accountId: string) => {
        const id = randomUUID();
        await q.insert(notifications).values({ id, accountId, type: 'email', destination: `d-${id}@example.test`, eventTypes: ['message-received'] });
        const deliveryId = randomUUID();
        await q.insert(notificationDeliveries).values({ id: deliveryId, accountId, notificationId: id, eventId: `evt_${deliveryId}`, eventType: 'message-received', body: '{}' });
        return { id, deliveryId };
      },
    ]),
  ),
  '/v1/accounts/:acc/simulator/phones/:phone/calls/:id': async (q, accountId) => {
    const number = await createPhoneNumber(q, accountId);
    const caller = uniqueTestNumber();
    const row = await ringForwardedCall(q, { callId: randomUUID(), caller, business: number.number, forwardTo: uniqueTestNumber() });
    return { phone: caller.slice(1), id: row.id };
  },
  '/v1/accounts/:acc/templates/:id/webhooks': async (q, accountId) => {
    const id = randomUUID();
    await q.insert(templates).values({ id, accountId, name: `Template ${id}`, type: 'Web', template: 'Hello' });
    return { id };
  },
};

/** A body that passes validation, for write routes taking a record id (so the lookup itself is reached). */
const validBody: Record<string, object> = {
  'PUT /v1/accounts/:acc/lists/:listId': { name: 'Renamed list' },
  'POST /v1/accounts/:acc/lists/:listId/contacts': { contactIds: [randomUUID()] },
  'PUT /v1/accounts/:acc/lists/:listId/contacts/:contactId': { status: 'optedOut' },
  'PUT /v1/accounts/:acc/groups/:id': { name: 'Renamed group' },
  'PUT /v1/accounts/:acc/users/:id': { role: 'ReadOnly' },
  'PUT /v1/accounts/:acc/contacts/:id': { firstName: 'Renamed' },
  'PUT /v1/accounts/:acc/contacts/:id/block': {},
  'POST /v1/accounts/:acc/users/:id/resend': {},
  'PUT /v1/accounts/:acc/phonenumbers/:id': { universalReply: true },
  'POST /v1/accounts/:acc/simulator/phones/:phone/calls/:id': { action: 'hangUp' },
  'POST /v1/accounts/:acc/phonenumbers/:id/verify': { code: '123456' },
  'PUT /v1/accounts/:acc/carriers/:id': {
    carrier: 'smpp',
    name: 'Renamed SMSC',
    settings: { host: 'smsc.example.test', port: 2775, systemId: 'acme' },
  },
  'POST /v1/accounts/:acc/carriers/:id/phonenumbers': { number: uniqueTestNumber() },
  'POST /v1/accounts/:acc/integrations/twilio/connections/:id/numbers': { sids: [`PN${'0'.repeat(32)}`] },
  'PUT /v1/accounts/:acc/messages/:id': { read: true },
  'PUT /v1/accounts/:acc/conversations/:id/close': {},
  'PUT /v1/accounts/:acc/conversations/:id/assigngroup': { group: null },
  'PUT /v1/accounts/:acc/conversations/:id/read': { read: true },
  'PUT /v1/accounts/:acc/autoresponders/:id': { match: 'renamed', response: 'Renamed' },
  'PUT /v1/accounts/:acc/links/:id': { name: 'Renamed', destinationUrl: 'https://renamed.example.test', domain: { id: randomUUID() } },
  'PUT /v1/accounts/:acc/campaigns/:id': {
    name: 'Renamed',
    messagingType: 'marketing',
    phoneNumberFilter: { group: randomUUID() },
    trigger: { code: 'M' },
    template: 'Renamed',
  },
  'POST /v1/accounts/:acc/campaigns/:id/execute': {},
  'POST /v1/accounts/:acc/reports/:name/:id/resend': {},
  'PUT /v1/accounts/:acc/templates/:id': { name: 'Renamed', type: 'SMS', template: 'Renamed' },
  'PUT /v1/accounts/:acc/notifications/:id': { type: 'email', destination: 'renamed@example.test', eventTypes: ['message-sent'] },
  'POST /v1/accounts/:acc/notifications/:id/deliveries/:deliveryId/resend': {},
  'POST /v1/accounts/:acc/notifications/:id/test': {},
  'POST /v1/accounts/:acc/notifications/:id/secret': {},
};

/** Values for path parameters that are neither the account nor a record id. */
const otherParams: Record<string, string> = {
  // A virtual phone of the simulator (a phone number, not a record id).
  phone: '12015550100',
  // The one approval type the product knows (an unknown one answers 404 before any account data).
  approvalType: 'acceptablehours',
  // The one count type there is (GET counts/:type).
  type: 'unread',
  // The one job report there is (GET reports/:name/:id; an unknown name answers 404).
  name: 'campaign',
  // A webhook subscription's URL, encoded into the path as the hosted product's clients send it.
  url: encodeURIComponent('https://hooks.example.test/parley'),
  // A user's notification channel by its kind (the user's own; another account's is the guard's 404).
  channel: 'email',
  // An integration by its kind (one per account, no record id).
  integration: 'activecampaign',
};

const isRecordParam = (name: string): boolean => name === 'id' || name.endsWith('Id');
const paramsOf = (url: string): string[] => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
const isCapability = (permission: RouteRecord['permission']): permission is Capability =>
  (capabilities as readonly string[]).includes(permission ?? '');

interface Walked {
  method: Method;
  url: string;
  capability: Capability;
  recordParams: string[];
  /** 'token': the account is the token's, named with ?accountId= (the hosted product's /v1/tools/sharefile). */
  accountFrom: RouteRecord['accountFrom'];
}

/** The /v1 routes under an account, each checked to be one these tests know how to call. */
function accountRoutes(table: readonly RouteRecord[]): Walked[] {
  const problems: string[] = [];
  const walked: Walked[] = [];
  for (const route of table) {
    if (!route.url.startsWith('/v1/')) continue;
    const params = paramsOf(route.url);
    const name = `${route.method} ${route.url}`;
    if (route.url.includes('*')) problems.push(`${name}: a wildcard route`);
    const fromToken = route.accountFrom === 'token';
    if (fromToken && params.includes('acc')) problems.push(`${name}: an account from the token and from :acc`);
    if (isCapability(route.permission) && !params.includes('acc') && !fromToken) problems.push(`${name}: a capability route without :acc`);
    if (!params.includes('acc') && !fromToken) continue;
    // Fastify adds HEAD beside every GET; it runs the same handler and guard.
    if (route.method === 'HEAD') continue;
    if (!methods.includes(route.method)) {
      problems.push(`${name}: method not walked`);
      continue;
    }
    if (!isCapability(route.permission)) {
      problems.push(`${name}: under an account but declares '${String(route.permission)}', not a capability`);
      continue;
    }
    const recordParams = params.filter((p) => p !== 'acc' && isRecordParam(p));
    for (const p of params.filter((p) => p !== 'acc' && !isRecordParam(p))) {
      if (otherParams[p] === undefined) problems.push(`${name}: no sample value for :${p} (otherParams)`);
    }
    if (recordParams.length > 0 && recordIn[route.url] === undefined) {
      problems.push(`${name}: no way to create a record for ${recordParams.map((p) => `:${p}`).join(', ')} (recordIn)`);
    }
    if (recordParams.length > 0 && ['POST', 'PUT', 'PATCH'].includes(route.method) && validBody[name] === undefined) {
      problems.push(`${name}: no valid body to reach the record lookup (validBody)`);
    }
    walked.push({ method: route.method as Method, url: route.url, capability: route.permission, recordParams, accountFrom: route.accountFrom });
  }
  expect(problems, 'routes the tenancy tests cannot classify').toEqual([]);
  return walked;
}

/** The URL of a walked route for the account `values.acc`: in its path, or named for a token-account route. */
function pathFor(route: Pick<Walked, 'url' | 'accountFrom'>, values: Record<string, string>): string {
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => {
    const value = values[p] ?? otherParams[p];
    if (value === undefined) throw new Error(`no value for :${p} in ${route.url}`);
    return value;
  });
  return route.accountFrom === 'token' ? `${path}?accountId=${values.acc ?? ''}` : path;
}

describe.each(testDatabaseKinds)('tenancy and roles across the route table on %s', (kind) => {
  let h: ApiHarness;
  let routes: Walked[];

  beforeAll(async () => {
    h = await startApiHarness(kind);
    routes = accountRoutes(routeTable(h.app));
  });
  afterAll(async () => {
    await h.close();
  });

  const call = (method: Method, url: string, token: string) =>
    h.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    });

  it('walks the routes of this change', () => {
    const names = routes.map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /v1/accounts/:acc/users',
        'PUT /v1/accounts/:acc/users/:id',
        'POST /v1/accounts/:acc/credentials',
        'PUT /v1/accounts/:acc/contacts/:id/block',
        'POST /v1/accounts/:acc/contacts/remove',
        'GET /v1/accounts/:acc/tags',
        'GET /v1/accounts/:acc/simulator/phones/:phone/messages',
        'POST /v1/accounts/:acc/simulator/phones/:phone/messages',
        'PUT /v1/accounts/:acc/simulator/settings',
        'POST /v1/accounts/:acc/messages',
        'PUT /v1/accounts/:acc/messages/:id',
        'GET /v1/accounts/:acc/conversations/:id',
        'PUT /v1/accounts/:acc/conversations/:id/assigngroup',
        'GET /v1/accounts/:acc/counts/:type',
        'GET /v1/accounts/:acc/charges',
        'POST /v1/accounts/:acc/topup',
        'GET /v1/accounts/:acc/paymentsource',
        'PUT /v1/accounts/:acc/paymentsource',
        'GET /v1/accounts/:acc/plans',
        'PUT /v1/accounts/:acc/plan',
        'GET /v1/accounts/:acc/invoices',
        'GET /v1/accounts/:acc/invoices/:invoiceId/pdf',
        'POST /v1/accounts/:acc/autotopup',
        'DELETE /v1/accounts/:acc/autotopup',
        // The hosted product's path, its account the token's (named with ?accountId= here).
        'POST /v1/tools/sharefile',
        'GET /v1/tools/screenshots/ios',
        'GET /v1/accounts/:acc/conversations/:id/screenshot',
      ]),
    );
  });

  it("answers 404 and never data to an administrator of A asking for account B or B's records", async () => {
    const adminA = await createUser(h.database.db);
    const accountA = await createAccount(h.database.db, { [adminA.id]: 'Administrator' });
    const clientId = `pk_${randomUUID()}`;
    const principals = {
      user: h.tokenFor(adminA.id),
      apiClient: h.authenticator.add({ userId: clientId, clientId, accountIds: [accountA.id] }),
    };
    const ownerB = await createUser(h.database.db);
    const accountB = await createAccount(h.database.db, { [ownerB.id]: 'Administrator' });

    const leaks: string[] = [];
    for (const route of routes) {
      const recordsB = (await recordIn[route.url]?.(h.database.db, accountB.id)) ?? {};
      for (const [who, token] of Object.entries(principals)) {
        const attempts: { acc: string; body: object | undefined }[] = [{ acc: accountB.id, body: undefined }];
        // With A's own id in the path, B's record ids must not be found either.
        if (route.recordParams.length > 0) attempts.push({ acc: accountA.id, body: validBody[`${route.method} ${route.url}`] });
        for (const attempt of attempts) {
          const url = pathFor(route, { acc: attempt.acc, ...recordsB });
          const res = await h.app.inject({
            method: route.method,
            url,
            headers: { authorization: `Bearer ${token}` },
            ...(attempt.body === undefined
              ? route.method === 'GET' || route.method === 'DELETE'
                ? {}
                : { payload: {} }
              : { payload: attempt.body }),
          });
          const body = res.body === '' ? {} : res.json<Record<string, unknown>>();
          if (res.statusCode !== 404 || 'data' in body) leaks.push(`${route.method} ${url} as ${who}: ${String(res.statusCode)} ${res.body}`);
        }
      }
      // The record is still there and unchanged for B's own administrator.
      const own = await call('GET', `/v1/accounts/${accountB.id}/users?limit=100`, h.tokenFor(ownerB.id));
      expect(own.statusCode).toBe(200);
    }
    expect(leaks).toEqual([]);
  });

  it('refuses (403) exactly the roles the permission table refuses, on every capability route', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      for (const role of roles) {
        // An account per call: what an allowed role does (close, renew...) must not change the next call.
        const fixtures = await roleFixtures(h.database.db);
        const values: Record<string, string> = { acc: fixtures.accountId };
        for (const p of route.recordParams) values[p] = randomUUID();
        const res = await call(route.method, pathFor(route, values), h.tokenFor(fixtures.users[role]));
        const expected = can(role, route.capability) ? 'allowed' : 'refused';
        const guardNotFound = res.statusCode === 404 && res.body.includes('The account was not found.');
        const got =
          res.statusCode === 403 ? 'refused' : res.statusCode >= 500 || res.statusCode === 401 || guardNotFound ? 'broken' : 'allowed';
        if (got !== expected) wrong.push(`${route.method} ${route.url} as ${role}: ${String(res.statusCode)} ${res.body}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
