import { startActiveCampaignPeer, type ActiveCampaignPeer } from '../apps/server/src/modules/integrations/activecampaign/test/activeCampaignPeer.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerPorts } from './peers.js';
import { signIn } from './signIn.js';

/*
 * ActiveCampaign, end to end: the shared server's ActiveCampaign calls go to a local peer answering as
 * ActiveCampaign's API v3 (ACTIVECAMPAIGN_API_BASE_URL, docs/integrations.md; peers.ts). An administrator connects it
 * (the URL rule first), synchronizes the contacts, reads the summary, and disconnects.
 */

const person = integrationPeople.activeCampaign;
const accountName = person.accountName;

let peer: ActiveCampaignPeer;

test.beforeAll(async () => {
  peer = await startActiveCampaignPeer({ port: peerPorts().activeCampaign });
  peer.contacts.push(
    { id: '1', email: 'rosa@example.test', firstName: 'Rosa', lastName: 'Petal', phone: '+1 415 555 2671' },
    { id: '2', email: 'ivan@example.test', firstName: 'Ivan', lastName: 'Ivy', phone: '(415) 555-2672' },
    { id: '3', email: 'nophone@example.test', firstName: 'Noel', lastName: 'Nophone', phone: '' },
  );
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects ActiveCampaign, synchronizes, reads the summary and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  const pageUrl = '/integrations/activecampaign';
  await signIn(page, pageUrl, person, accountName);
  await expect(page.getByRole('heading', { name: 'ActiveCampaign' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');

  const form = page.getByRole('form', { name: 'Connect ActiveCampaign' });
  await form.getByLabel('API URL').fill('https://harbour.example.com');
  await form.getByLabel('API Key').fill(peer.apiKey);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form.getByText('Invalid ActiveCampaign API URL')).toBeVisible();
  await form.getByLabel('API URL').fill('https://harbour.api-us1.com');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByText('https://harbour.api-us1.com')).toBeVisible();

  await page.getByRole('button', { name: 'Synchronize', exact: true }).click();
  const contacts = page.getByRole('group', { name: 'Contacts sync' });
  await expect(contacts.getByText(/^Contacts: Completed/)).toBeVisible({ timeout: 30_000 });
  await expect(contacts.getByText('3 of 3 records: 2 created, 0 updated, 1 skipped')).toBeVisible();
  await expect(contacts.getByText('No mobile number: 1 (Noel Nophone)')).toBeVisible();

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await expect(page.getByRole('form', { name: 'Connect ActiveCampaign' })).toBeVisible();

  // An error the provider's redirect brings back is shown as an error alert.
  await page.goto(`${pageUrl}?error=${encodeURIComponent('The authorization was refused')}`);
  await expect(page.getByRole('alert').filter({ hasText: 'The authorization was refused' })).toBeVisible();
});
