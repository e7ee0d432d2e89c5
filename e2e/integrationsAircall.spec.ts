import { startAirCallPeer, type AirCallPeer, type PeerCall } from '../apps/server/src/modules/integrations/aircall/test/aircallPeer.js';
import { bearerOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerApps, peerPorts } from './peers.js';
import { shownInUs } from './phoneText.js';
import { signIn } from './signIn.js';

/*
 * AirCall, end to end: the shared server's AirCall authorize page and API are a local peer
 * (AIRCALL_OAUTH_BASE_URL, AIRCALL_API_BASE_URL; peers.ts). An administrator connects through the authorize page,
 * refreshes (once refused by AirCall, once through) and sees AirCall's number matched to the account's, turns
 * the text-back on; the peer posts a missed call's events (twice) with the webhook's token; the call is in the
 * caller's conversation beside one text-back, which AirCall shows on the call; the administrator disconnects.
 */

const person = integrationPeople.aircall;
const accountName = person.accountName;
const spaced = (e164: string): string => `${e164.slice(0, 2)} ${e164.slice(2, 5)}-${e164.slice(5, 8)}-${e164.slice(8)}`;

let peer: AirCallPeer;

test.beforeAll(async () => {
  peer = await startAirCallPeer({ ...peerApps.aircall, port: peerPorts().aircall });
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects AirCall, refreshes its numbers, a missed call is filed and texted back once, and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/aircall?error=AirCall%20said%20no', person, accountName);
  await expect(page.getByRole('alert').filter({ hasText: 'AirCall said no' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect to AirCall' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByLabel('AirCall company')).toHaveText('Parley (company 4242)');

  // The account's number is also AirCall's (written as AirCall writes digits); quiet hours off, a template.
  const headers = await bearerOf(page);
  const accounts = (await (await page.request.get('/v1/accounts', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === accountName)?.id ?? '';
  const numbers = (await (await page.request.get(`/v1/accounts/${accountId}/phonenumbers?admin=true`, { headers })).json()) as { data: { number: string }[] };
  const ours = numbers.data[0]?.number ?? '';
  const line = { id: 777001, name: 'Front desk', digits: spaced(ours) };
  peer.numbers.push(line);
  peer.users.push({ id: 1, name: 'Ada Agent', email: 'ada@harbour.example' });
  expect((await page.request.put(`/v1/accounts/${accountId}`, { headers, data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } } })).status()).toBe(200);
  const text = 'Sorry we missed your call! Reply here to book.';
  expect((await page.request.post(`/v1/accounts/${accountId}/templates`, { headers, data: { name: 'Missed call', type: 'SMS', template: text } })).status()).toBe(201);
  await page.reload();

  peer.throttleNext('/v1/numbers');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'AirCall asked to slow down' })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const row = page.getByLabel('AirCall number Front desk');
  await expect(row).toContainText(ours);
  await expect(row.getByRole('combobox', { name: 'Calls go to' })).toContainText('Same number');
  await expect(page.getByLabel('AirCall users')).toHaveText('Users: Ada Agent');

  const properties = page.getByRole('form', { name: 'Properties' });
  await properties.getByLabel('Text back missed calls').check();
  await properties.getByRole('combobox', { name: 'Text-back template' }).click();
  await page.getByRole('option', { name: 'Missed call' }).click();
  await properties.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Properties have been saved')).toBeVisible();

  const mobile = `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`;
  const at = Math.floor(Date.now() / 1000) - 60;
  const missed: PeerCall = {
    id: 880000 + Math.floor(Math.random() * 10000),
    direction: 'inbound',
    status: 'done',
    started_at: at,
    answered_at: null,
    ended_at: at + 25,
    duration: 25,
    raw_digits: spaced(mobile),
    voicemail: null,
    recording: null,
    missed_call_reason: 'no_available_agent',
    number: line,
    user: null,
    contact: { first_name: 'Dana', last_name: 'Dialer' },
  };
  const webhook = peer.webhooks[0];
  if (webhook === undefined) throw new Error('Parley made no webhook at AirCall');
  for (const event of ['call.hungup', 'call.ended']) {
    const delivered = await page.request.post(webhook.url, { headers: { 'content-type': 'application/json' }, data: peer.event(webhook, event, missed) });
    expect(delivered.status(), await delivered.text()).toBe(200);
  }
  expect(peer.insightCards.map((c) => c.callId)).toEqual([String(missed.id)]);

  await page.goto('/conversations');
  await page.getByRole('grid').getByRole('row').filter({ hasText: 'Dana Dialer' }).getByRole('link').first().click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByTestId('call')).toContainText('Missed call');
  await expect(log.getByTestId('message').filter({ hasText: text })).toHaveCount(1);
  await page.goto('/simulator');
  await expect(page.getByRole('region', { name: shownInUs(mobile) }).getByText(text)).toHaveCount(1, { timeout: 30_000 });

  await page.goto('/integrations/aircall');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  expect(peer.webhooks).toEqual([]);
  await expect(page.getByRole('button', { name: 'Connect to AirCall' })).toBeVisible();
});
