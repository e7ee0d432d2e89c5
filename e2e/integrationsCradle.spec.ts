import { startCradlePeer, type CradlePeer, type PeerCall } from '../apps/server/src/modules/integrations/cradle/test/cradlePeer.js';
import { bearerOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerPorts } from './peers.js';
import { signIn } from './signIn.js';

/*
 * Cradle, end to end: the shared server's Cradle API is a local peer (CRADLE_API_BASE_URL, peers.ts; answering
 * as Parley assumes Cradle's API to be). An administrator connects with an API key, the peer posts a signed
 * missed call to the account's number, the call is in the caller's conversation, and the administrator
 * disconnects, which removes the webhook at Cradle.
 */

const person = integrationPeople.cradle;
const accountName = person.accountName;

let peer: CradlePeer;

test.beforeAll(async () => {
  peer = await startCradlePeer({ port: peerPorts().cradle });
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects Cradle with an API key, a signed missed call is in the conversation, and disconnects', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, '/integrations/cradle', person, accountName);
  const form = page.getByRole('form', { name: 'Connect Cradle' });
  await form.getByLabel('API Key').fill('not-the-key');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form.getByText('The API URL or key was refused')).toBeVisible();
  await form.getByLabel('API Key').fill(peer.apiKey);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByLabel('Cradle account')).toHaveText('Harbour Law');

  const headers = await bearerOf(page);
  const accounts = (await (await page.request.get('/v1/accounts', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === accountName)?.id ?? '';
  const numbers = (await (await page.request.get(`/v1/accounts/${accountId}/phonenumbers?admin=true`, { headers })).json()) as { data: { number: string }[] };
  const webhook = peer.webhooks[0];
  if (webhook === undefined) throw new Error('Parley registered no webhook at Cradle');
  const call: PeerCall = {
    id: `call_${String(Date.now())}`,
    direction: 'inbound',
    status: 'missed',
    from: `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`,
    to: numbers.data[0]?.number ?? '',
    started_at: new Date().toISOString(),
    duration_seconds: 0,
    recording_url: null,
    caller_name: 'Nora Number',
  };
  const signed = peer.event(webhook, call);
  const delivered = await page.request.post(webhook.url, { headers: signed.headers, data: signed.body });
  expect(delivered.status(), await delivered.text()).toBe(200);

  await page.goto('/conversations');
  await page.getByRole('grid').getByRole('row').filter({ hasText: 'Nora Number' }).getByRole('link').first().click();
  await expect(page.getByRole('log', { name: 'Messages' }).getByTestId('call')).toContainText('Missed call');

  await page.goto('/integrations/cradle');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  expect(peer.webhooks).toEqual([]);
});
