import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../../carriers/registry.js';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { validationMessages } from '@parley/shared';
import { accounts, contacts, listMembers, messages } from '../../../platform/db/schema/index.js';
import { supportDetails } from '../../messaging/keywords.js';
import { receiveInbound } from '../../messaging/inbound.js';
import { optInListConfirmation } from '../../messaging/optInConfirmation.js';
import { outboxEvents } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { balanceOf, messagingCounts, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../test/sendingFixtures.js';
import { insertOptInTemplate, insertTemplate } from '../../../test/templates.js';
import { OPT_IN_PAGE_NOT_FOUND } from '../optInPage.js';
import { OPT_IN_REQUESTS_PER_NUMBER } from '../optInRequest.js';
import { OPT_IN_ATTEMPTS_PER_CLIENT, OPT_IN_NOT_SENDABLE, OPT_IN_TOO_MANY_TEXTS, TOO_MANY_OPT_IN_ATTEMPTS } from './optIn.js';

let ipSerial = 0;
/** A client address of each test's own, so the per-address limit of one test leaves the others alone. */
const nextIp = (): string => `198.51.100.${String((ipSerial += 1))}`;

describe.each(testDatabaseKinds)('the opt-in page on %s', (kind) => {
  const { h } = useRouteHarness(kind);
  const log = silentLogger();

  const url = (templateId: string) => `/v1/clients/optin/${templateId}`;
  const get = (templateId: string) => h.app.inject({ method: 'GET', url: url(templateId) });
  const post = (templateId: string, fields: Record<string, string>, ip: string) =>
    h.app.inject({
      method: 'POST',
      url: url(templateId),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
      remoteAddress: ip,
    });
  /** A US number as a person types it: national format. */
  const national = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

  async function optInAccount() {
    const s = await sendingAccount(h.database.db);
    const { template, listId } = await insertOptInTemplate(h.database.db, s.accountId, 'Acme: reply YES to get our weekly deals.');
    const [account] = await h.database.db.select().from(accounts).where(eq(accounts.id, s.accountId));
    if (!account) throw new Error('no account');
    return { s, template, listId, account };
  }

  const memberOf = async (listId: string, mobile: string) => {
    const [row] = await h.database.db
      .select({ member: listMembers })
      .from(listMembers)
      .innerJoin(contacts, eq(contacts.id, listMembers.contactId))
      .where(and(eq(listMembers.listId, listId), eq(contacts.mobileNumber, mobile)));
    return row?.member;
  };
  const outbound = (accountId: string) =>
    h.database.db.select().from(messages).where(and(eq(messages.accountId, accountId), eq(messages.direction, 'outbound'))).orderBy(messages.createdAt, messages.id);
  const reply = async (s: SendingAccount, from: string, text: string) => {
    const result = await receiveInbound(
      h.database, DEPLOYMENT_SIMULATOR,
      { carrierMessageId: randomUUID(), from, to: s.number, text, media: [], receivedAt: new Date() },
      log,
    );
    if (result.outcome !== 'received') throw new Error(`not received: ${result.outcome}`);
    return result;
  };

  it('shows a small, self-contained, labelled form in the name of the account', async () => {
    const { template, account } = await optInAccount();
    await h.database.db.update(accounts).set({ defaultCountry: 'GB', name: 'Acme & Sons' }).where(eq(accounts.id, account.id));
    const res = await get(template.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const page = res.body;
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<h1>Text messages from Acme &amp; Sons</h1>');
    expect(page).toContain(`<form method="post" action="/v1/clients/optin/${template.id}"`);
    expect(page).toContain('<label for="country">Country</label>');
    expect(page).toContain('<label for="number">Mobile number</label>');
    expect(page).toMatch(/<input id="number" name="number" type="tel"[^>]*autocomplete="tel"/);
    expect(page).toContain('<option value="GB" selected>United Kingdom</option>');
    expect(page).toContain('By signing up, you agree to receive recurring text messages from Acme &amp; Sons at this number.');
    expect(page).toContain('Reply STOP to unsubscribe');
    // Nothing is loaded from anywhere: no scripts, no external styles, images or fonts.
    expect(page).not.toMatch(/<script|<link|<img|src=|url\(|https?:\/\//i);
    expect((await h.app.inject({ method: 'HEAD', url: url(template.id) })).statusCode).toBe(200);
  });

  it('signs a valid number up pending its reply, texts it the template once and charges for it', async () => {
    const { s, template, listId } = await optInAccount();
    const person = uniqueSendingTestNumber();
    const before = new Date();
    const res = await post(template.id, { country: 'US', number: national(person) }, '203.0.113.9');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(`reply <strong>YES</strong> to the text message Sending ${s.adminId} sends to ${person}`);

    const member = await memberOf(listId, person);
    expect(member).toMatchObject({ status: 'subscribed', optInAt: null });
    expect(member?.consentSource).toMatch(/^optin page from 203\.0\.113\.9 at \d{4}-\d\d-\d\dT[\d:.]+Z, awaiting reply$/);
    const requestedAt = new Date(/at (\S+),/.exec(member?.consentSource ?? '')?.[1] ?? '');
    expect(requestedAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);

    const sent = await outbound(s.accountId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      toNumber: person,
      fromNumber: s.number,
      body: 'Acme: reply YES to get our weekly deals.',
      templateId: template.id,
      eventType: 'optInRequest',
      status: 'queued',
      price: '0.0100',
      createdByUserId: null,
    });
    expect(await balanceOf(h.database.db, s.accountId)).toBe('9.9900');
    expect(await messagingCounts(h.database.db, s.accountId)).toMatchObject({ messages: 1, ledger: 2 });
    expect(await outboxEvents(h.database.db, 'contactCreated', s.accountId)).toHaveLength(1);
  });

  it('shows the form again with a clear message for a bad number, and stores nothing', async () => {
    const { s, template } = await optInAccount();
    const ip = nextIp();
    const cases: [Record<string, string>, string][] = [
      [{ country: 'US', number: '12345' }, validationMessages.phoneInvalid],
      [{ country: 'US', number: '   ' }, validationMessages.phoneNumberMissing],
      [{ country: 'ZZ', number: '415 555 0100' }, validationMessages.phoneCountryInvalid],
      [{}, validationMessages.phoneNumberMissing],
    ];
    for (const [fields, message] of cases) {
      const res = await post(template.id, fields, ip);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain(`<div class="error" role="alert" id="number-error">${message}</div>`);
      expect(res.body).toContain('aria-invalid="true"');
    }
    const typed = await post(template.id, { country: 'US', number: '12<b>345' }, ip);
    expect(typed.body).toContain('value="12&lt;b&gt;345"');
    expect(await messagingCounts(h.database.db, s.accountId)).toMatchObject({ messages: 0, ledger: 1 });
    const stored = await h.database.db.select().from(contacts).where(eq(contacts.accountId, s.accountId));
    expect(stored).toEqual([]);
    expect(await balanceOf(h.database.db, s.accountId)).toBe('10.0000');
  });

  it('answers a 404 page for an unknown id, another type, a template without a list and a closed account', async () => {
    const { s, template } = await optInAccount();
    const sms = await insertTemplate(h.database.db, s.accountId, { type: 'SMS' });
    const web = await insertTemplate(h.database.db, s.accountId, { type: 'Web' });
    const listless = await insertTemplate(h.database.db, s.accountId, { type: 'OptIn', optInListId: null });
    const closed = await optInAccount();
    await h.database.db.update(accounts).set({ status: 'closed', closedAt: new Date() }).where(eq(accounts.id, closed.account.id));
    const ip = nextIp();
    for (const id of [randomUUID(), 'not-a-uuid', sms.id, web.id, listless.id, closed.template.id]) {
      for (const res of [await get(id), await post(id, { country: 'US', number: national(uniqueSendingTestNumber()) }, ip)]) {
        expect(res.statusCode, id).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain(OPT_IN_PAGE_NOT_FOUND);
      }
    }
    expect((await get(template.id)).statusCode).toBe(200);
    for (const accountId of [s.accountId, closed.account.id]) {
      expect(await messagingCounts(h.database.db, accountId)).toMatchObject({ messages: 0, ledger: 1 });
    }
  });

  it('confirms the sign-up when the person replies YES, keeping time, source and address', async () => {
    const { s, template, listId, account } = await optInAccount();
    const person = uniqueSendingTestNumber();
    await post(template.id, { country: 'US', number: person }, '2001:db8::7');
    const pending = await memberOf(listId, person);

    const before = new Date();
    const result = await reply(s, person, 'Yes please');
    expect(result.keyword).toMatchObject({ keyword: { kind: 'optIn', keyword: 'YES' } });
    const member = await memberOf(listId, person);
    expect(member?.status).toBe('optedIn');
    expect(member?.optInAt?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(member?.consentSource).toBe(`${(pending?.consentSource ?? '').replace(', awaiting reply', '')}, confirmed by reply YES`);
    expect(member?.consentSource).toMatch(/^optin page from 2001:db8::7 at \S+Z, confirmed by reply YES$/);
    expect(result.keyword?.reply).toMatchObject({
      body: optInListConfirmation(supportDetails(account.name, account.support)),
      eventType: 'optInConfirmation',
      price: '0.0000',
      toNumber: person,
    });
    expect((await outboxEvents(h.database.db, 'contactOptIn', s.accountId)).length).toBe(1);
    expect((await outboxEvents(h.database.db, 'listOptIn', s.accountId)).map((e) => e.data)).toEqual([
      { list: { id: listId }, contact: { id: member?.contactId }, status: 'optedIn', at: member?.optInAt?.toISOString(), consentSource: member?.consentSource },
    ]);

    // Confirmed once: another YES changes nothing and gets no reply, as for anyone who never left.
    const again = await reply(s, person, 'YES');
    expect(again.keyword?.reply).toBeNull();
    expect((await memberOf(listId, person))?.optInAt).toEqual(member?.optInAt);
    // Already on the list: the page texts nothing more.
    const res = await post(template.id, { country: 'US', number: person }, nextIp());
    expect(res.statusCode).toBe(200);
    expect((await outbound(s.accountId)).filter((m) => m.eventType === 'optInRequest')).toHaveLength(1);
  });

  it('brings back a contact who sent STOP after signing up when they answer START, with one reply', async () => {
    const { s, template, listId, account } = await optInAccount();
    const person = uniqueSendingTestNumber();
    await post(template.id, { country: 'US', number: person }, nextIp());
    await reply(s, person, 'STOP');
    const result = await reply(s, person, 'start');
    const [contact] = await h.database.db.select().from(contacts).where(and(eq(contacts.accountId, s.accountId), eq(contacts.mobileNumber, person)));
    expect(contact?.optedOutAt).toBeNull();
    expect(await memberOf(listId, person)).toMatchObject({ status: 'optedIn', consentSource: expect.stringMatching(/, confirmed by reply START$/) as unknown });
    expect(result.keyword?.reply?.body).toBe(optInListConfirmation(supportDetails(account.name, account.support)));
  });

  it(`leaves a request unconfirmed once its text is more than a week old`, async () => {
    const { s, template, listId } = await optInAccount();
    const person = uniqueSendingTestNumber();
    await post(template.id, { country: 'US', number: person }, nextIp());
    await h.database.db.execute(
      sql`update messages set created_at = now() - interval '8 days' where account_id = ${s.accountId} and event_type = 'optInRequest'`,
    );
    const result = await reply(s, person, 'YES');
    expect(result.keyword?.reply).toBeNull();
    expect(await memberOf(listId, person)).toMatchObject({ status: 'subscribed', optInAt: null });
  });

  it('texts nothing to a contact who opted out, and keeps nothing of the attempt', async () => {
    const { s, template, listId } = await optInAccount();
    const person = uniqueSendingTestNumber();
    await h.database.db.insert(contacts).values({ id: randomUUID(), accountId: s.accountId, mobileNumber: person, mobileCountry: 'US', optedOutAt: new Date() });
    const res = await post(template.id, { country: 'US', number: person }, nextIp());
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(OPT_IN_NOT_SENDABLE);
    expect(await memberOf(listId, person)).toBeUndefined();
    expect(await messagingCounts(h.database.db, s.accountId)).toMatchObject({ messages: 0, ledger: 1 });
  });

  it(`texts one number at most ${String(OPT_IN_REQUESTS_PER_NUMBER)} times a day and one address ${String(OPT_IN_ATTEMPTS_PER_CLIENT)} times per window`, async () => {
    const { s, template } = await optInAccount();
    const person = uniqueSendingTestNumber();
    for (let i = 0; i < OPT_IN_REQUESTS_PER_NUMBER; i += 1) {
      expect((await post(template.id, { country: 'US', number: person }, nextIp())).statusCode).toBe(200);
    }
    const over = await post(template.id, { country: 'US', number: person }, nextIp());
    expect(over.statusCode).toBe(429);
    expect(over.body).toContain(OPT_IN_TOO_MANY_TEXTS);
    expect(await messagingCounts(h.database.db, s.accountId)).toMatchObject({ messages: OPT_IN_REQUESTS_PER_NUMBER });

    const ip = nextIp();
    for (let i = 0; i < OPT_IN_ATTEMPTS_PER_CLIENT; i += 1) {
      expect((await post(template.id, { country: 'US', number: 'bad' }, ip)).statusCode).toBe(400);
    }
    const limited = await post(template.id, { country: 'US', number: uniqueSendingTestNumber() }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain(TOO_MANY_OPT_IN_ATTEMPTS);
    expect(await messagingCounts(h.database.db, s.accountId)).toMatchObject({ messages: OPT_IN_REQUESTS_PER_NUMBER });
  });
});
