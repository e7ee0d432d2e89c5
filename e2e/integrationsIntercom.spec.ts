import { startIntercomPeer, type IntercomPeer } from '../apps/server/src/modules/integrations/intercom/test/intercomPeer.js';
import { accessTokenOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerApps, peerPorts } from './peers.js';
import { shownInUs } from './phoneText.js';
import { signIn } from './signIn.js';

/*
 * Intercom, end to end: the shared server's Intercom OAuth server and API are a local peer
 * (INTERCOM_OAUTH_BASE_URL, INTERCOM_API_BASE_URL; peers.ts). An administrator connects through the authorize page and
 * sets no reply delay; a customer texts from a virtual phone and the conversation appears at the peer; the
 * peer sends a signed agent reply, which reaches the virtual phone as text; the administrator disconnects.
 */

const person = integrationPeople.intercom;
const accountName = person.accountName;

let peer: IntercomPeer;

test.beforeAll(async () => {
  peer = await startIntercomPeer({ ...peerApps.intercom, port: peerPorts().intercom });
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects Intercom; a customer text opens a conversation there and an agent reply reaches the phone; disconnect', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/intercom', person, accountName);
  await expect(page.getByRole('heading', { name: 'Intercom' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect to Intercom' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByLabel('Workspace')).toHaveText('Acme Support');

  const form = page.getByRole('form', { name: 'Properties' });
  await form.getByLabel('Intercom reply delay').click();
  await page.getByRole('option', { name: 'No delay' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Properties have been saved')).toBeVisible();

  // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
  const headers = { authorization: `Bearer ${await accessTokenOf(page)}` };
  const accounts = (await (await page.request.get('/v1/accounts', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === accountName)?.id ?? '';
  const hours = await page.request.put(`/v1/accounts/${accountId}`, { headers, data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } } });
  expect(hours.status(), await hours.text()).toBe(200);

  const mobile = `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`;
  const simulator = await page.context().newPage();
  await simulator.goto('/simulator');
  const newPhone = simulator.locator('form').filter({ has: simulator.getByRole('textbox', { name: 'Phone number' }) });
  await newPhone.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
  await newPhone.getByRole('textbox', { name: /^Message/ }).fill('Where is my parcel?');
  await newPhone.getByRole('button', { name: 'Send' }).click();
  const phone = simulator.getByRole('region', { name: shownInUs(mobile) });
  await expect(phone.getByText('Where is my parcel?')).toBeVisible();

  const carried = () => peer.conversations.find((c) => c.parts.some((p) => p.body === 'Where is my parcel?'));
  await expect.poll(() => carried()?.id, { timeout: 30_000 }).toBeDefined();
  const reply = peer.agentReply(carried()?.id ?? '', '<p>It left our depot <b>this morning</b> &amp; arrives today.</p>');
  const sent = await page.request.post('/v1/integrations/intercom/webhook', { headers: { 'content-type': 'application/json', 'x-hub-signature': reply.signature }, data: reply.body });
  expect(await sent.json()).toEqual({ success: true, outcome: 'scheduled' });
  await expect(phone.getByText('It left our depot this morning & arrives today.')).toBeVisible({ timeout: 30_000 });
  await simulator.close();

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect to Intercom' })).toBeVisible();
});
