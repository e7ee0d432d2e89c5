import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { FIVE_FIELD_CRON_MESSAGE, type Integration } from '@parley/shared';
import { calendarReminders, integrations, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { addContact, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { insertTemplate } from '../../../test/templates.js';
import { OAUTH_STATE_INVALID_MESSAGE } from '../oauthCommands.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { OutboxDispatcher } from '../../../platform/events/outboxDispatcher.js';
import { silentLogger } from '../../../test/logger.js';
import { createMessageHandlers } from '../../messaging/handlers.js';
import type { JobDefinition } from '../../../platform/jobs/queue.js';
import { calendarCancelJob } from './calendarCancelJob.js';
import { calendarReminderRunJob } from './calendarReminderJobs.js';
import { openCredentials, sealCredentials } from '../integrationStore.js';
import { CalendarCancelSubscriber } from './calendarCancelSubscriber.js';
import { runCalendarReminders } from './calendarReminderRun.js';
import { claimDueReminderRuns, planReminderSchedules } from './calendarReminderSchedule.js';
import { connectGoogleCalendar, peerEvent } from './test/googleCalendarFixtures.js';
import { googleCalendarEnv, startGoogleCalendarPeer, type GoogleCalendarPeer } from './test/googleCalendarPeer.js';

const CLINIC = 'clinic@group.calendar.google.com';

describe.each(testDatabaseKinds)('Google Calendar reminders (%s)', (kind) => {
  let h: IntegrationHarness;
  let peer: GoogleCalendarPeer;
  beforeAll(async () => {
    peer = await startGoogleCalendarPeer();
    h = await startIntegrationHarness(kind, googleCalendarEnv(peer));
  });
  afterAll(async () => {
    await h.close();
    await peer.close();
  });

  const url = (accountId: string, path = ''): string => `/v1/accounts/${accountId}/integrations/googlecalendar${path}`;

  /** A sending account connected to the peer, with a reminder template and the clinic calendar chosen. */
  async function connected(properties: Record<string, unknown> = {}): Promise<SendingAccount & { token: string; integrationId: string }> {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    expect(await connectGoogleCalendar(h, account.accountId, token)).toBe('http://parley.test/integrations/googlecalendar');
    const template = await insertTemplate(h.database.db, account.accountId, { template: 'Hi {{{firstName}}}, see you at {{{eventStart}}} for {{{eventTitle}}}. Reply C to cancel.' });
    const saved = await h.call('PUT', url(account.accountId, '/properties'), token, { calendarId: CLINIC, templateId: template.id, schedule: '0 * * * *', ...properties });
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await h.database.db.select({ id: integrations.id }).from(integrations).where(and(eq(integrations.accountId, account.accountId), eq(integrations.kind, 'googlecalendar')));
    return { ...account, token, integrationId: row?.id ?? '' };
  }

  const texts = (accountId: string) =>
    h.database.db.select({ to: messages.toNumber, body: messages.body }).from(messages).where(and(eq(messages.accountId, accountId), eq(messages.direction, 'outbound'))).orderBy(asc(messages.createdAt));

  it('connects with offline access and PKCE, refuses a tampered state, lists the calendars page by page, revokes on disconnect', async () => {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const start = new URL((await h.call('GET', url(account.accountId, '/oauth/start'), token)).json<{ data: { url: string } }>().data.url);
    expect(Object.fromEntries(start.searchParams)).toMatchObject({ access_type: 'offline', prompt: 'consent', code_challenge_method: 'S256', redirect_uri: 'http://parley.test/v1/integrations/googlecalendar/oauth/callback' });
    expect(start.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/calendar.readonly');
    expect(await connectGoogleCalendar(h, account.accountId, token, true)).toBe(`http://parley.test/integrations/googlecalendar?error=${encodeURIComponent(OAUTH_STATE_INVALID_MESSAGE)}`);
    expect((await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data.status).toBe('notConnected');

    expect(await connectGoogleCalendar(h, account.accountId, token)).toBe('http://parley.test/integrations/googlecalendar');
    const integration = (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data;
    expect(integration).toMatchObject({ status: 'connected', auth: 'oauth', connection: { googleAccount: 'owner@acme.example' }, properties: { lookForward: 24, cancelReplies: false } });

    peer.pageSize = 1;
    const listed = await h.call('GET', url(account.accountId, '/calendars'), token);
    peer.pageSize = 250;
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({ data: [{ id: 'owner@acme.example', summary: 'owner@acme.example', primary: true }, { id: CLINIC, summary: 'Clinic appointments', primary: false }] });
    expect(peer.requests.filter((r) => r.startsWith('GET /calendar/v3/users/me/calendarList') && r.includes('pageToken=1'))).not.toHaveLength(0);

    const revokedBefore = peer.revoked.length;
    expect((await h.call('DELETE', url(account.accountId, '/disconnect'), token)).statusCode).toBe(200);
    expect(peer.revoked).toHaveLength(revokedBefore + 1);
    expect(peer.revoked.at(-1)).toMatch(/^1\/\//);
    expect((await h.call('GET', url(account.accountId, '/calendars'), token)).statusCode).toBe(409);
  });

  it('refuses a schedule croner cannot run, with a clear message, and a from that is no date', async () => {
    const { accountId, token } = await connected();
    const badField = await h.call('PUT', url(accountId, '/properties'), token, { schedule: '0 25 * * *' });
    expect(badField.statusCode).toBe(400);
    expect(badField.json<{ error: { message: string } }>().error.message).toBe('schedule: The cron\'s hour field "25" is not valid.');
    const six = await h.call('PUT', url(accountId, '/properties'), token, { schedule: '0 9 * * 1 2027' });
    expect(six.json<{ error: { message: string } }>().error.message).toBe(`schedule: ${FIVE_FIELD_CRON_MESSAGE}`);
    expect((await h.call('PUT', url(accountId, '/properties'), token, { from: '2027-02-30T09:00' })).statusCode).toBe(400);
    expect((await h.call('PUT', url(accountId, '/properties'), token, { timezone: 'Mars/Olympus' })).statusCode).toBe(400);
    const saved = await h.call('PUT', url(accountId, '/properties'), token, { schedule: '30 8 * * 1-5', from: '2027-01-04T00:00', lookForward: 48, timezone: 'America/New_York' });
    expect(saved.json<{ data: Integration }>().data.properties).toMatchObject({ schedule: '30 8 * * 1-5', from: '2027-01-04T00:00', lookForward: 48 });
  });

  it('texts one reminder per event and attendee; none again on the next run, for a moved event or a cancelled one; reads every page', async () => {
    const account = await connected();
    const ada = await addContact(h.database.db, account.accountId, { firstName: 'Ada', email: 'Ada@Example.test' });
    const bob = await addContact(h.database.db, account.accountId, { firstName: 'Bob', email: 'bob@example.test' });
    const walkIn = '+14155550177';
    const now = new Date();
    const both = peerEvent(peer, CLINIC, now, 2, { summary: 'Check-up', attendees: [{ email: 'ada@example.test', responseStatus: 'needsAction' }, { email: 'bob@example.test', responseStatus: 'accepted' }, { email: 'stranger@example.test', responseStatus: 'accepted' }] });
    peerEvent(peer, CLINIC, now, 3, { summary: 'Walk-in', description: `Call the patient on ${walkIn} if late`, attendees: [] });
    peerEvent(peer, CLINIC, now, 4, { summary: 'Cancelled', status: 'cancelled', attendees: [{ email: 'ada@example.test', responseStatus: 'accepted' }] });
    peerEvent(peer, CLINIC, now, 5, { summary: 'Declined', attendees: [{ email: 'bob@example.test', responseStatus: 'declined' }] });
    peerEvent(peer, CLINIC, now, 30, { summary: 'Too far', attendees: [{ email: 'ada@example.test', responseStatus: 'accepted' }] });
    peer.pageSize = 2;
    try {
      expect(await runCalendarReminders(h.deps, account.integrationId, now)).toEqual({ sent: 3, refused: 0, already: 0 });
      const sent = await texts(account.accountId);
      expect(sent.map((m) => m.to).sort()).toEqual([ada.mobileNumber, bob.mobileNumber, walkIn].sort());
      expect(sent.find((m) => m.to === ada.mobileNumber)?.body).toMatch(/^Hi Ada, see you at \w{3}, \w{3} \d+, \d+:\d{2} [AP]M UTC for Check-up\. Reply C to cancel\.$/);
      expect(peer.requests.some((r) => r.startsWith(`GET /calendar/v3/calendars/${encodeURIComponent(CLINIC)}/events`) && r.includes('pageToken=2') && r.includes('showDeleted=true'))).toBe(true);

      expect(await runCalendarReminders(h.deps, account.integrationId, new Date(now.getTime() + 60_000))).toEqual({ sent: 0, refused: 0, already: 3 });
      both.start = { dateTime: new Date(now.getTime() + 6 * 3_600_000).toISOString() };
      both.end = { dateTime: new Date(now.getTime() + 6.5 * 3_600_000).toISOString() };
      expect((await runCalendarReminders(h.deps, account.integrationId, new Date(now.getTime() + 120_000))).sent).toBe(0);
      expect(await texts(account.accountId)).toHaveLength(3);
    } finally {
      peer.pageSize = 250;
      peer.events.delete(CLINIC);
    }
  });

  it('across the fall-back night in New York, a daily run reminds each event once and none falls between two runs', async () => {
    const account = await connected({ schedule: '0 9 * * *', from: '2026-10-30T00:00', timezone: 'America/New_York', lookForward: 24 });
    const patient = await addContact(h.database.db, account.accountId, { firstName: 'Eve', email: 'eve@example.test' });
    const at = new Date('2026-10-31T00:00:00Z');
    const attend = [{ email: 'eve@example.test', responseStatus: 'accepted' }];
    // Sunday 1 November: 08:30 EST is 13:30Z, 25 h after Saturday's 09:00 EDT run and before Sunday's 09:00 EST one.
    const gap = peerEvent(peer, CLINIC, at, 0, { summary: 'Early Sunday', start: { dateTime: '2026-11-01T08:30:00-05:00' }, end: { dateTime: '2026-11-01T09:00:00-05:00' }, attendees: attend });
    const monday = peerEvent(peer, CLINIC, at, 0, { summary: 'Monday', start: { dateTime: '2026-11-02T08:45:00-05:00' }, end: { dateTime: '2026-11-02T09:15:00-05:00' }, attendees: attend });
    try {
      // The schedule as the scheduler sees it on Friday evening, then each daily run as it falls due.
      await planReminderSchedules(h.database.db, new Date('2026-10-30T22:00:00Z'));
      const runs = ['2026-10-31T13:00:00Z', '2026-11-01T14:00:00Z', '2026-11-02T14:00:00Z'].map((t) => new Date(t));
      const outcomes = [];
      for (const run of runs) {
        expect(await claimDueReminderRuns(h.database.db, new Date(run.getTime() - 60_000))).not.toContain(account.integrationId);
        expect(await claimDueReminderRuns(h.database.db, run)).toContain(account.integrationId);
        outcomes.push((await runCalendarReminders(h.deps, account.integrationId, run)).sent);
      }
      // Saturday's run reaches to Sunday's (25 h): the early Sunday event; Sunday's, Monday's; Monday's, nothing left.
      expect(outcomes).toEqual([1, 1, 0]);
      const rows = await h.database.db.select().from(calendarReminders).where(eq(calendarReminders.accountId, account.accountId)).orderBy(asc(calendarReminders.eventStart));
      expect(rows.map((r) => [r.eventId, r.createdAt.toISOString()])).toEqual([
        [gap.id, '2026-10-31T13:00:00.000Z'],
        [monday.id, '2026-11-01T14:00:00.000Z'],
      ]);
      expect((await texts(account.accountId)).map((m) => [m.to, m.body])).toEqual([
        [patient.mobileNumber, 'Hi Eve, see you at Sun, Nov 1, 8:30 AM EST for Early Sunday. Reply C to cancel.'],
        [patient.mobileNumber, 'Hi Eve, see you at Mon, Nov 2, 8:45 AM EST for Monday. Reply C to cancel.'],
      ]);
    } finally {
      peer.events.delete(CLINIC);
    }
  });

  it('a C reply from a reminded attendee declines the event in Google Calendar and answers; other texts and a switch left off do nothing', async () => {
    const account = await connected({ cancelReplies: true });
    const ada = await addContact(h.database.db, account.accountId, { firstName: 'Ada', email: 'ada@example.test' });
    const bob = await addContact(h.database.db, account.accountId, { firstName: 'Bob', email: 'bob@example.test' });
    const now = new Date();
    const event = peerEvent(peer, CLINIC, now, 2, { summary: 'Dentist', attendees: [{ email: 'owner@acme.example', responseStatus: 'accepted', organizer: true, self: true }, { email: 'ada@example.test', responseStatus: 'accepted' }, { email: 'bob@example.test', responseStatus: 'needsAction' }] });
    const job = calendarCancelJob(h.deps) as unknown as JobDefinition<never>;
    const textIn = (from: string, text: string) =>
      createMessageHandlers({ database: h.database, log: silentLogger() })
        .forConnection({ carrier: 'simulator', carrierSettingsId: null })
        .inbound({ carrierMessageId: crypto.randomUUID(), from, to: account.number, text, media: [], receivedAt: new Date() });
    const dispatchAndCancel = async (): Promise<void> => {
      const dispatcher = new OutboxDispatcher(h.database, [new CalendarCancelSubscriber(h.deps.jobs, job)], silentLogger());
      while (await dispatcher.dispatchOnce());
      await h.run(job, {});
    };
    try {
      expect((await runCalendarReminders(h.deps, account.integrationId, now)).sent).toBe(2);
      await textIn(bob.mobileNumber, 'C is for cookie');
      await textIn(ada.mobileNumber, ' c ');
      await dispatchAndCancel();
      expect(event.attendees.map((a) => [a.email, a.responseStatus])).toEqual([
        ['owner@acme.example', 'accepted'],
        ['ada@example.test', 'declined'],
        ['bob@example.test', 'needsAction'],
      ]);
      const answered = (await texts(account.accountId)).filter((m) => m.body.startsWith('Your appointment'));
      expect(answered).toHaveLength(1);
      expect(answered[0]?.to).toBe(ada.mobileNumber);
      expect(answered[0]?.body).toMatch(/^Your appointment "Dentist" on .+ is cancelled\. Thank you for letting us know\.$/);
      // A second C changes nothing more: the reminder was declined once.
      await textIn(ada.mobileNumber, 'C');
      await dispatchAndCancel();
      expect((await texts(account.accountId)).filter((m) => m.body.startsWith('Your appointment'))).toHaveLength(1);
      expect(peer.requests.filter((r) => r.startsWith('PATCH '))).toHaveLength(1);

      // With the switch off, Bob's C is an ordinary text.
      expect((await h.call('PUT', url(account.accountId, '/properties'), account.token, { cancelReplies: false })).statusCode).toBe(200);
      await textIn(bob.mobileNumber, 'C');
      await dispatchAndCancel();
      expect(event.attendees.find((a) => a.email === 'bob@example.test')?.responseStatus).toBe('needsAction');
    } finally {
      peer.events.delete(CLINIC);
    }
  });

  it('refreshes an expiring token with the stored refresh token; a grant Google revoked puts the integration in error', async () => {
    const account = await connected();
    const [row] = await h.database.db.select().from(integrations).where(eq(integrations.id, account.integrationId));
    if (row === undefined) throw new Error('no integration');
    const stored = await openCredentials(h.deps, row);
    expect(stored.refreshToken).toMatch(/^1\/\//);
    const expire = async (): Promise<void> => {
      const credentials = await openCredentials(h.deps, (await h.database.db.select().from(integrations).where(eq(integrations.id, account.integrationId)))[0] ?? row);
      await h.database.db.update(integrations).set({ credentials: await sealCredentials(h.deps, row.id, { ...credentials, expiresAt: new Date(Date.now() - 1000).toISOString() }) }).where(eq(integrations.id, row.id));
    };
    await expire();
    const before = peer.requests.filter((r) => r === 'POST /token').length;
    expect((await h.call('GET', url(account.accountId, '/calendars'), account.token)).statusCode).toBe(200);
    expect(peer.requests.filter((r) => r === 'POST /token')).toHaveLength(before + 1);

    peer.revoked.push(stored.refreshToken ?? '');
    await expire();
    const job = calendarReminderRunJob(h.deps) as unknown as JobDefinition<never>;
    await h.run(job, { integrationId: account.integrationId });
    expect((await h.call('GET', url(account.accountId), account.token)).json<{ data: Integration }>().data).toMatchObject({ status: 'error', errorReason: 'Google refused the authorization; connect again' });
  });
});
