import { callRailWebhook, startCallRailPeer, type CallRailPeer, type PeerCall } from '../apps/server/src/modules/integrations/callrail/test/callRailPeer.js';
import { bearerOf } from './browserApi.js';
import { e2eBaseUrl, expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerPorts } from './peers.js';
import { shownInUs } from './phoneText.js';
import { signIn } from './signIn.js';

/*
 * CallRail, end to end: the shared server's CallRail API is a local peer (CALLRAIL_API_BASE_URL; peers.ts). An
 * administrator connects with an API key, account id and signing key, turns the missed-call text-back on,
 * the peer delivers a signed missed-call webhook (twice, as CallRail may), the call shows in the caller's
 * conversation beside the one text-back, the virtual phone gets it, and the administrator disconnects.
 */

const SIGNING_KEY = 'callrail-company-signing-key-e2e';
const person = integrationPeople.callRail;
const accountName = person.accountName;

let peer: CallRailPeer;

test.beforeAll(async () => {
  peer = await startCallRailPeer({ port: peerPorts().callRail });
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects CallRail, a missed call is in the conversation and texted back once, and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/callrail', person, accountName);
  await expect(page.getByRole('heading', { name: 'CallRail' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');

  const form = page.getByRole('form', { name: 'Connect CallRail' });
  await form.getByLabel('API Key').fill(peer.apiKey);
  await form.getByLabel('Account ID').fill(peer.accounts[0]?.id ?? '');
  await form.getByLabel('Webhook signing key').fill(SIGNING_KEY);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByLabel('CallRail account')).toContainText('Acme Plumbing');
  const webhookUrl = await page.getByRole('textbox', { name: 'Webhook URL' }).inputValue();
  expect(webhookUrl).toMatch(new RegExp(`^${e2eBaseUrl()}/v1/integrations/callrail/webhook/[A-Za-z0-9_-]{24}$`));

  // A template to text back with, and quiet hours off: the run must not depend on the hour it runs at.
  const headers = await bearerOf(page);
  const accounts = (await (await page.request.get('/v1/accounts', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === accountName)?.id ?? '';
  const hours = await page.request.put(`/v1/accounts/${accountId}`, { headers, data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } } });
  expect(hours.status(), await hours.text()).toBe(200);
  const text = 'Sorry we missed your call! Reply here and a plumber will text you back.';
  const template = await page.request.post(`/v1/accounts/${accountId}/templates`, { headers, data: { name: 'Missed call', type: 'SMS', template: text } });
  expect(template.status(), await template.text()).toBe(201);

  await page.reload();
  const properties = page.getByRole('form', { name: 'Properties' });
  await properties.getByLabel('Text back missed calls').check();
  await properties.getByRole('combobox', { name: 'Text-back template' }).click();
  await page.getByRole('option', { name: 'Missed call' }).click();
  await properties.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Properties have been saved')).toBeVisible();

  // CallRail delivers the post-call webhook of a missed call, signed, twice.
  const mobile = `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`;
  const missed: PeerCall = {
    id: `CAL${String(Date.now())}`,
    answered: false,
    voicemail: false,
    direction: 'inbound',
    duration: 0,
    start_time: new Date().toISOString(),
    customer_phone_number: mobile,
    customer_name: 'Dana Dialer',
    tracking_phone_number: '+14045550111',
    business_phone_number: '+14045550100',
    recording: null,
    source: 'Google Organic',
    campaign: '',
    keywords: 'leaking pipe',
  };
  const hook = callRailWebhook(missed, SIGNING_KEY);
  for (let i = 0; i < 2; i += 1) {
    const delivered = await page.request.post(webhookUrl, { headers: hook.headers, data: hook.body });
    expect(delivered.status(), await delivered.text()).toBe(200);
  }

  await page.goto('/conversations');
  await page.getByRole('grid').getByRole('row').filter({ hasText: 'Dana Dialer' }).getByRole('link').first().click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByTestId('call')).toContainText('Missed call');
  await expect(log.getByTestId('message').filter({ hasText: text })).toHaveCount(1);
  // Dana calls again and is answered: the line arrives live, with no reload.
  const answered = callRailWebhook({ ...missed, id: `${missed.id}B`, answered: true, duration: 75, start_time: new Date().toISOString() }, SIGNING_KEY);
  expect((await page.request.post(webhookUrl, { headers: answered.headers, data: answered.body })).status()).toBe(200);
  await expect(log.getByTestId('call').filter({ hasText: 'Call answered · 1 min 15 s' })).toBeVisible();
  await expect(log.getByTestId('message').filter({ hasText: text })).toHaveCount(1);
  // On a phone the line fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(log.getByTestId('call').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.goto('/simulator');
  await expect(page.getByRole('region', { name: shownInUs(mobile) }).getByText(text)).toHaveCount(1, { timeout: 30_000 });

  await page.goto('/integrations/callrail');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await expect(page.getByRole('form', { name: 'Connect CallRail' })).toBeVisible();
});
