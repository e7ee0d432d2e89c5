import crypto from 'node:crypto';
import { TwilioApiPeer } from '../apps/server/src/modules/carriers/twilio/test/testTwilioPeer.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerPorts } from './peers.js';
import { openSettings } from './settingsDialog.js';
import { signIn } from './signIn.js';

/*
 * Twilio, end to end: the shared server's Twilio API is a local peer (TWILIO_API_BASE_URL; peers.ts). An
 * administrator connects the account's Twilio account, lists its numbers, imports one, finds it in Phone
 * Numbers, and disconnects.
 */

const person = integrationPeople.twilio;
const accountName = person.accountName;
const sid = `AC${crypto.randomBytes(16).toString('hex')}`;
const authToken = crypto.randomBytes(16).toString('hex');
const peer = new TwilioApiPeer(sid, authToken);

test.beforeAll(async () => {
  await peer.start(peerPorts().twilio);
  peer.addOwned('+14155550181', 'Front desk');
  peer.addOwned('+14155550182', 'Back office');
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects Twilio, imports a number, finds it in Phone Numbers and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/twilio', person, accountName);
  await expect(page.getByLabel('Status')).toHaveText('Not connected');

  await page.getByLabel('Account SID').fill(sid);
  await page.getByLabel('Auth Token').fill('wrong-token');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Twilio refused the Account SID and auth token')).toBeVisible();
  await page.getByLabel('Auth Token').fill(authToken);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Connected');

  const numbers = page.getByRole('table', { name: 'Twilio numbers' });
  await expect(numbers.getByRole('row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Choose +14155550181' }).check();
  await page.getByRole('button', { name: 'Import 1' }).click();
  await expect(numbers.getByRole('row', { name: /Front desk/ })).toContainText('In Parley');
  expect(peer.owned[0]?.smsUrl).toMatch(/\/v1\/carriers\/twilio\/[0-9a-f-]{36}\/inbound$/);

  const settings = await openSettings(page);
  await settings.getByRole('tab', { name: 'Phone Numbers' }).click();
  await expect(settings.getByRole('table', { name: 'Phone Numbers' }).getByRole('row', { name: /Front desk/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // A second Twilio account may be added beside the first; the same one again is refused.
  await page.getByRole('button', { name: 'Connect another Twilio account' }).click();
  await page.getByLabel('Account SID').fill(sid);
  await page.getByLabel('Auth Token').fill(authToken);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText('This Twilio account is already connected')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('region', { name: /^Twilio connection / })).toHaveCount(1);

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  expect(peer.owned[0]?.smsUrl).toBe('');
});
