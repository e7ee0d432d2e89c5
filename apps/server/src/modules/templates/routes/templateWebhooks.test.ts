import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountMembers, contactGroups, contacts, groupPhoneNumbers, messages } from '../../../platform/db/schema/index.js';
import { testConfig } from '../../../test/config.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { closeAccount, createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, addPhoneNumber, balanceOf, messagingCounts, sendingAccount, uniqueSendingTestNumber } from '../../../test/sendingFixtures.js';
import { insertOptInTemplate, insertTemplate } from '../../../test/templates.js';
import { templateWebhookLink, type TemplateWebhookIntegration, type TemplateWebhookTarget } from '../webhookLink.js';
import { WEBHOOK_NO_PHONE_MESSAGE, WEBHOOK_USER_REFUSED_MESSAGE } from '../webhookSend.js';
import { WEBHOOK_KEY_REFUSED_MESSAGE } from './templateWebhooks.js';

const config = testConfig({ PUBLIC_URL: 'https://parley.example.test' });

describe.each(testDatabaseKinds)('web-hook links of Web templates on %s', (kind) => {
  const { h } = useRouteHarness(kind);

  async function webAccount(text = 'Hi {{{firstName}}} {{{lastName}}}, your order has shipped.') {
    const s = await sendingAccount(h.database.db);
    const template = await insertTemplate(h.database.db, s.accountId, { type: 'Web', template: text });
    return { s, template };
  }

  const link = async (integration: TemplateWebhookIntegration, target: TemplateWebhookTarget): Promise<string> => {
    const made = await templateWebhookLink(config, integration, target);
    if (made === null) throw new Error('no link');
    return made;
  };
  /** The path and query of a link, as the app is called with it. */
  const pathOf = (full: string) => {
    const parsed = new URL(full);
    return `${parsed.pathname}${parsed.search}`;
  };
  const hubspot = (full: string, body: object) => h.app.inject({ method: 'POST', url: pathOf(full), payload: body });
  const activeCampaign = (full: string, fields: Record<string, string>) =>
    h.app.inject({
      method: 'POST',
      url: pathOf(full),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const hubspotContact = (phone: string, extra: Record<string, string> = {}) => ({
    vid: 3201,
    'portal-id': 62515,
    properties: Object.fromEntries(
      Object.entries({ firstname: 'Grace', lastname: 'Hopper', email: 'Grace@Example.test', mobilephone: phone, ...extra }).map(([k, v]) => [
        k,
        { value: v, versions: [{ value: v, 'source-type': 'CRM_UI' }] },
      ]),
    ),
  });
  const outbound = (accountId: string) =>
    h.database.db.select().from(messages).where(and(eq(messages.accountId, accountId), eq(messages.direction, 'outbound')));
  const errorOf = (res: LightMyRequestResponse) => res.json<{ error: { code: string; message: string } }>().error;

  it('builds the link /{integration}/v1/webhook/{template}?user=&group=&key= with a key', async () => {
    const templateId = randomUUID();
    const userId = randomUUID();
    const groupId = randomUUID();
    const made = await link('hubspot', { templateId, userId, groupId });
    expect(made).toMatch(
      new RegExp(`^https://parley\\.example\\.test/hubspot/v1/webhook/${templateId}\\?user=${userId}&group=${groupId}&key=[A-Za-z0-9_-]{43}$`),
    );
    expect(await link('activecampaign', { templateId, userId, groupId: null })).toMatch(
      new RegExp(`^https://parley\\.example\\.test/activecampaign/v1/webhook/${templateId}\\?user=${userId}&group=&key=`),
    );
    // No secrets key (PostgreSQL without SECRETS_KEY): no link.
    expect(await templateWebhookLink({ publicUrl: config.publicUrl, secrets: { key: null, keyFile: null } }, 'hubspot', { templateId, userId, groupId })).toBeNull();
  });

  it("sends one personalised message for HubSpot's call, as the link's user, charged", async () => {
    const { s, template } = await webAccount();
    const phone = uniqueSendingTestNumber();
    const res = await hubspot(await link('hubspot', { templateId: template.id, userId: s.adminId, groupId: null }), hubspotContact(phone));
    expect(res.statusCode, res.body).toBe(200);
    const [contact] = await h.database.db.select().from(contacts).where(eq(contacts.accountId, s.accountId));
    expect(contact).toMatchObject({ mobileNumber: phone, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test' });
    const sent = await outbound(s.accountId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      contactId: contact?.id,
      toNumber: phone,
      fromNumber: s.number,
      body: 'Hi Grace Hopper, your order has shipped.',
      templateId: template.id,
      createdByUserId: s.adminId,
      status: 'queued',
      price: '0.0100',
    });
    expect(res.json()).toEqual({ data: { contactId: contact?.id, messages: [{ id: sent[0]?.id, status: 'queued' }], charged: '0.0100' } });
    expect(await balanceOf(h.database.db, s.accountId)).toBe('9.9900');
  });

  it("reads HubSpot's flat and plain-property bodies, the phone when there is no mobile phone", async () => {
    const { s, template } = await webAccount('Hello {{{firstName}}}');
    const target = await link('hubspot', { templateId: template.id, userId: s.adminId, groupId: null });
    const flat = uniqueSendingTestNumber();
    expect((await hubspot(target, { firstname: 'Flat', phone: flat })).statusCode).toBe(200);
    const plain = uniqueSendingTestNumber();
    expect((await hubspot(target, { properties: { firstname: 'Plain', phone: plain.slice(2), mobilephone: '' } })).statusCode).toBe(200);
    const bodies = (await outbound(s.accountId)).map((m) => [m.toNumber, m.body]);
    expect(bodies).toEqual(expect.arrayContaining([[flat, 'Hello Flat'], [plain, 'Hello Plain']]));
  });

  it("sends one personalised message for ActiveCampaign's form, from the link's group", async () => {
    const { s, template } = await webAccount();
    const groupNumber = await addPhoneNumber(h.database.db, s.accountId);
    const groupId = randomUUID();
    await h.database.db.insert(contactGroups).values({ id: groupId, accountId: s.accountId, name: 'Sales' });
    await h.database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: groupNumber.id });
    const phone = uniqueSendingTestNumber();
    const res = await activeCampaign(await link('activecampaign', { templateId: template.id, userId: s.adminId, groupId }), {
      type: 'subscribe',
      'contact[id]': '42',
      'contact[email]': 'ada@example.test',
      'contact[first_name]': 'Ada',
      'contact[last_name]': 'Lovelace',
      'contact[phone]': phone,
      'contact[tags]': 'vip',
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = await outbound(s.accountId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ toNumber: phone, fromNumber: groupNumber.number, body: 'Hi Ada Lovelace, your order has shipped.', price: '0.0100' });
    expect(await balanceOf(h.database.db, s.accountId)).toBe('9.9900');
  });

  it('keeps what the team typed on a contact it knows and fills in only the blanks', async () => {
    const { s, template } = await webAccount();
    const known = await addContact(h.database.db, s.accountId, { firstName: 'Gracie', lastName: '', email: null });
    const res = await hubspot(await link('hubspot', { templateId: template.id, userId: s.adminId, groupId: null }), hubspotContact(known.mobileNumber));
    expect(res.statusCode, res.body).toBe(200);
    const [contact] = await h.database.db.select().from(contacts).where(eq(contacts.id, known.id));
    expect(contact).toMatchObject({ firstName: 'Gracie', lastName: 'Hopper', email: 'grace@example.test' });
    expect((await outbound(s.accountId))[0]?.body).toBe('Hi Gracie Hopper, your order has shipped.');
  });

  it('refuses a wrong key, an unknown template, another type and a closed account, and sends nothing', async () => {
    const { s, template } = await webAccount();
    const body = hubspotContact(uniqueSendingTestNumber());
    const good = await link('hubspot', { templateId: template.id, userId: s.adminId, groupId: null });
    const other = await insertTemplate(h.database.db, s.accountId, { type: 'Web' });
    const otherKey = new URL(await link('hubspot', { templateId: other.id, userId: s.adminId, groupId: null })).searchParams.get('key') ?? '';
    const tampered = (change: (q: URLSearchParams) => void) => {
      const url = new URL(good);
      change(url.searchParams);
      return url.toString();
    };
    const refused = [
      tampered((q) => {
        q.set('key', otherKey);
      }),
      tampered((q) => {
        q.set('key', 'x'.repeat(43));
      }),
      tampered((q) => {
        q.delete('key');
      }),
      tampered((q) => {
        q.set('user', randomUUID());
      }),
      tampered((q) => {
        q.set('group', randomUUID());
      }),
      good.replace(template.id, other.id),
    ];
    const statuses = [];
    for (const target of refused) statuses.push((await hubspot(target, body)).statusCode);
    expect(statuses).toEqual([403, 403, 400, 403, 403, 403]);
    expect(errorOf(await hubspot(refused[0] ?? '', body))).toEqual({ code: 'forbidden', message: WEBHOOK_KEY_REFUSED_MESSAGE });

    // A key Parley made, for something that is not a Web template of an open account.
    const sms = await insertTemplate(h.database.db, s.accountId, { type: 'SMS' });
    const optIn = (await insertOptInTemplate(h.database.db, s.accountId)).template;
    const closed = await webAccount();
    await closeAccount(h.database.db, closed.s.accountId);
    for (const templateId of [randomUUID(), sms.id, optIn.id, closed.template.id]) {
      const res = await hubspot(await link('hubspot', { templateId, userId: s.adminId, groupId: null }), body);
      expect(res.statusCode, templateId).toBe(404);
      expect(errorOf(res)).toEqual({ code: 'not_found', message: 'The template was not found.' });
    }
    expect((await activeCampaign(good.replace('/hubspot/', '/pipedrive/'), {})).statusCode).toBe(404);
    for (const accountId of [s.accountId, closed.s.accountId]) {
      expect(await messagingCounts(h.database.db, accountId)).toMatchObject({ messages: 0, ledger: 1 });
      expect(await h.database.db.select().from(contacts).where(eq(contacts.accountId, accountId))).toEqual([]);
    }
  });

  it("refuses a link whose user may not send (any more), and a call without a usable phone", async () => {
    const { s, template } = await webAccount();
    const readOnly = await createUser(h.database.db);
    await h.database.db.insert(accountMembers).values({ accountId: s.accountId, userId: readOnly.id, role: 'ReadOnly' });
    const stranger = await createUser(h.database.db);
    const sender = await createUser(h.database.db);
    await h.database.db.insert(accountMembers).values({ accountId: s.accountId, userId: sender.id, role: 'Sender' });
    const body = hubspotContact(uniqueSendingTestNumber());
    for (const userId of [readOnly.id, stranger.id]) {
      const res = await hubspot(await link('hubspot', { templateId: template.id, userId, groupId: null }), body);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).message).toBe(WEBHOOK_USER_REFUSED_MESSAGE);
    }
    const senderLink = await link('hubspot', { templateId: template.id, userId: sender.id, groupId: null });
    const missing = await hubspot(senderLink, { properties: { firstname: { value: 'Nobody' } } });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe(WEBHOOK_NO_PHONE_MESSAGE);
    const bad = await activeCampaign(await link('activecampaign', { templateId: template.id, userId: sender.id, groupId: null }), { 'contact[phone]': '12345' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe("The contact's phone number 12345 cannot be texted: Country or Number is not valid");
    expect(await messagingCounts(h.database.db, s.accountId)).toMatchObject({ messages: 0, ledger: 1 });
    expect(await h.database.db.select().from(contacts).where(eq(contacts.accountId, s.accountId))).toEqual([]);

    // The same Sender link works while the Sender may send.
    expect((await hubspot(senderLink, body)).statusCode).toBe(200);
  });
});
