import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_NOT_FOUND_MESSAGE, type Call, type CallRecordedEventData, type Pagination } from '@parley/shared';
import { calls, contacts, conversations, messages } from '../../platform/db/schema/index.js';
import { outboxEvents } from '../../test/accounts.js';
import { addMember } from '../../test/conversations.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { addContact, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../test/sendingFixtures.js';
import { insertTemplate } from '../../test/templates.js';
import { recordCall, type CallReport } from './callRecorder.js';
import { textBackMissedCall, textBackWithinWindow, type TextBackSettings } from './textBack.js';

let serial = 0;

describe.each(testDatabaseKinds)('calls on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);
  let account: SendingAccount;
  let admin: string;
  let settings: TextBackSettings;

  beforeAll(async () => {
    account = await sendingAccount(h.database.db);
    admin = h.tokenFor(account.adminId);
    const template = await insertTemplate(h.database.db, account.accountId, { template: 'Sorry we missed your call. How can we help?' });
    settings = { enabled: true, templateId: template.id, windowHours: 24 };
  });

  const report = (overrides: Partial<CallReport> = {}): CallReport => {
    serial += 1;
    return {
      accountId: account.accountId,
      source: 'callrail',
      externalId: `CAL${String(serial)}-${kind}`,
      direction: 'inbound',
      status: 'missed',
      startedAt: new Date('2026-12-03T09:00:00Z'),
      durationSeconds: 0,
      from: uniqueSendingTestNumber(),
      to: account.number,
      phoneNumberId: account.numberId,
      ...overrides,
    };
  };

  const callsOf = (externalId: string) =>
    h.database.db.select().from(calls).where(and(eq(calls.accountId, account.accountId), eq(calls.externalId, externalId)));
  const textsTo = (contactId: string) =>
    h.database.db.select().from(messages).where(and(eq(messages.accountId, account.accountId), eq(messages.contactId, contactId), eq(messages.direction, 'outbound')));

  it('records a call in the caller’s conversation, creating the contact; a repeated webhook updates it', async () => {
    const caller = uniqueSendingTestNumber();
    // As a source may write it: national format, no country code.
    const first = report({ status: 'inProgress', from: `(415) ${caller.slice(5, 8)}-${caller.slice(8)}`, attributes: { source: 'Google Ads' } });
    const { call, created } = await recordCall(h.database.db, first);
    expect(created).toBe(true);
    expect(call.fromNumber).toBe(caller);
    const [contact] = await h.database.db.select().from(contacts).where(and(eq(contacts.accountId, account.accountId), eq(contacts.id, call.contactId)));
    expect(contact?.mobileNumber).toBe(call.fromNumber);
    const [conversation] = await h.database.db.select().from(conversations).where(eq(conversations.id, call.conversationId));
    expect(conversation).toMatchObject({ contactId: call.contactId, phoneNumberId: account.numberId, closedAt: null });

    const again = await recordCall(h.database.db, { ...first, status: 'answered', durationSeconds: 192, attributes: { campaign: 'Spring' }, recordingUrl: 'javascript:alert(1)' });
    expect(again.created).toBe(false);
    expect(again.call.id).toBe(call.id);
    // A late "in progress" never takes back how the call ended.
    await recordCall(h.database.db, { ...first, status: 'inProgress', durationSeconds: 0 });
    const rows = await callsOf(first.externalId);
    expect(rows).toHaveLength(1);
    // A recording address that is no web address is not kept (the inbox links it).
    expect(rows[0]).toMatchObject({ status: 'answered', durationSeconds: 192, attributes: { source: 'Google Ads', campaign: 'Spring' }, recordingUrl: null });

    const announced = (await outboxEvents(h.database.db, 'callRecorded', account.accountId)).map((e) => e.data as CallRecordedEventData);
    expect(announced.filter((d) => d.call.id === call.id).map((d) => d.call.status)).toEqual(['inProgress', 'answered', 'answered']);
    expect(announced[0]?.conversation.id).toBe(call.conversationId);
  });

  it('lists the conversation’s calls newest first to those who see it, and nobody else', async () => {
    const caller = uniqueSendingTestNumber();
    const older = await recordCall(h.database.db, report({ from: caller, startedAt: new Date('2026-12-01T10:00:00Z'), status: 'answered', durationSeconds: 45 }));
    await recordCall(h.database.db, report({ from: caller, startedAt: new Date('2026-12-02T10:00:00Z'), status: 'voicemail', recordingUrl: 'https://calls.example/vm.mp3' }));
    const url = `/v1/accounts/${account.accountId}/conversations/${older.call.conversationId}/calls`;
    const readOnly = h.tokenFor(await addMember(h.database.db, account.accountId, 'ReadOnly'));
    const res = await h.call('GET', url, readOnly);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: Call[]; pagination: Pagination }>();
    expect(page.pagination.totalCount).toBe(2);
    expect(page.data.map((c) => [c.status, c.durationSeconds])).toEqual([
      ['voicemail', 0],
      ['answered', 45],
    ]);
    expect(page.data[0]).toMatchObject({ direction: 'inbound', source: 'callrail', from: caller, to: account.number, recordingUrl: 'https://calls.example/vm.mp3' });
    expect((await h.call('GET', `${url}?limit=1&offset=1`, admin)).json<{ data: Call[] }>().data.map((c) => c.status)).toEqual(['answered']);

    // Through another account, a malformed id: not found.
    const foreign = await h.call('GET', `/v1/accounts/${fixtures.accountId}/conversations/${older.call.conversationId}/calls`, tokens.Administrator);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ error: { message: string } }>().error.message).toBe(CONVERSATION_NOT_FOUND_MESSAGE);
    expect((await h.call('GET', `/v1/accounts/${account.accountId}/conversations/nope/calls`, admin)).statusCode).toBe(404);
    expect((await h.call('GET', `${url}?limit=101`, admin)).statusCode).toBe(400);
  });

  it('texts back once for two concurrent webhooks of one call', async () => {
    const { call } = await recordCall(h.database.db, report());
    const outcomes = await Promise.all([textBackMissedCall(h.database.db, call, settings), textBackMissedCall(h.database.db, call, settings)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['alreadyDone', 'sent']);
    const texts = await textsTo(call.contactId);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ body: 'Sorry we missed your call. How can we help?', conversationId: call.conversationId, phoneNumberId: account.numberId });
  });

  it('texts a caller once per window: two calls inside it, again after it', async () => {
    const caller = uniqueSendingTestNumber();
    const one = await recordCall(h.database.db, report({ from: caller }));
    const two = await recordCall(h.database.db, report({ from: caller, status: 'voicemail' }));
    const now = new Date();
    const outcomes = await Promise.all([textBackMissedCall(h.database.db, one.call, settings, now), textBackMissedCall(h.database.db, two.call, settings, now)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['refused', 'sent']);
    expect(outcomes.find((o) => o.outcome === 'refused')).toEqual({ outcome: 'refused', reason: textBackWithinWindow(24) });
    expect(await textsTo(one.call.contactId)).toHaveLength(1);

    const later = await recordCall(h.database.db, report({ from: caller }));
    const after = new Date(now.getTime() + 25 * 3_600_000);
    expect((await textBackMissedCall(h.database.db, later.call, settings, after)).outcome).toBe('sent');
    expect(await textsTo(one.call.contactId)).toHaveLength(2);
  });

  it('sends nothing to an opted-out caller, for an answered or outgoing call, or when turned off', async () => {
    const optedOut = await addContact(h.database.db, account.accountId, { optedOutAt: new Date() });
    const { call } = await recordCall(h.database.db, report({ from: optedOut.mobileNumber }));
    const outcome = await textBackMissedCall(h.database.db, call, settings);
    expect(outcome.outcome).toBe('refused');
    expect(await textsTo(optedOut.id)).toHaveLength(0);

    const answered = await recordCall(h.database.db, report({ status: 'answered', durationSeconds: 30 }));
    expect(await textBackMissedCall(h.database.db, answered.call, settings)).toEqual({ outcome: 'notAsked' });
    const outgoing = await recordCall(h.database.db, report({ direction: 'outbound', from: account.number, to: uniqueSendingTestNumber() }));
    expect(await textBackMissedCall(h.database.db, outgoing.call, settings)).toEqual({ outcome: 'notAsked' });
    const off = await recordCall(h.database.db, report());
    expect(await textBackMissedCall(h.database.db, off.call, { ...settings, enabled: false })).toEqual({ outcome: 'notAsked' });
    expect(await textsTo(off.call.contactId)).toHaveLength(0);
  });
});
