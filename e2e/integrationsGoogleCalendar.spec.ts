import { startGoogleCalendarPeer, type GoogleCalendarPeer } from '../apps/server/src/modules/integrations/googlecalendar/test/googleCalendarPeer.js';
import { accessTokenOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerApps, peerPorts } from './peers.js';
import { signIn } from './signIn.js';

/*
 * Google Calendar, end to end: the shared server's Google OAuth endpoints and Calendar API are a local peer
 * (GOOGLE_* URLs; peers.ts). An administrator connects through the consent page, chooses a calendar from the
 * list, sets a schedule (an invalid cron is named), the template and the C/CANCEL switch, and disconnects;
 * an error the callback sends back is shown as an alert.
 */

const person = integrationPeople.googleCalendar;
const accountName = person.accountName;

let peer: GoogleCalendarPeer;

test.beforeAll(async () => {
  peer = await startGoogleCalendarPeer({ ...peerApps.googleCalendar, port: peerPorts().googleCalendar });
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects Google Calendar, chooses a calendar, a schedule and a template, then disconnects', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, `/integrations/googlecalendar?error=${encodeURIComponent('The authorization was refused')}`, person, accountName);
  await expect(page.getByRole('alert').filter({ hasText: 'The authorization was refused' })).toBeVisible();

  const headers = { authorization: `Bearer ${await accessTokenOf(page)}` };
  const accounts = (await (await page.request.get('/v1/accounts', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === accountName)?.id ?? '';
  const template = await page.request.post(`/v1/accounts/${accountId}/templates`, { headers, data: { name: 'Appointment reminder', type: 'SMS', template: 'Hi {{{firstName}}}, see you soon. Reply C to cancel.' } });
  expect(template.status(), await template.text()).toBe(201);

  await page.getByRole('button', { name: 'Connect to Google Calendar' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByLabel('Google account')).toHaveText('owner@acme.example');

  const form = page.getByRole('form', { name: 'Properties' });
  await form.getByLabel('Calendar').click();
  await page.getByRole('option', { name: 'Clinic appointments' }).click();
  await form.getByLabel('Schedule').fill('0 25 * * *');
  await expect(form.getByText('The cron\'s hour field "25" is not valid.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  await form.getByLabel('Schedule').fill('0 8 * * 1-5');
  await form.getByLabel('Time zone').fill('America/New_York');
  await form.getByLabel('Template').click();
  await page.getByRole('option', { name: 'Appointment reminder' }).click();
  await form.getByLabel('A reply of C or CANCEL declines the appointment').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Properties have been saved')).toBeVisible();
  const saved = (await (await page.request.get(`/v1/accounts/${accountId}/integrations/googlecalendar`, { headers })).json()) as { data: { properties: Record<string, unknown> } };
  expect(saved.data.properties).toMatchObject({ calendarId: 'clinic@group.calendar.google.com', schedule: '0 8 * * 1-5', timezone: 'America/New_York', cancelReplies: true, lookForward: 24 });

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  expect(peer.revoked).toHaveLength(1);
});
