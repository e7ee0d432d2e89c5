import { HubSpotPeer } from '../apps/server/src/modules/integrations/hubspot/test/hubspotPeer.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerApps, peerPorts } from './peers.js';
import { signIn } from './signIn.js';

/*
 * HubSpot, end to end: the shared server's HubSpot app and API are a local peer (HUBSPOT_*,
 * docs/integrations.md; peers.ts). An administrator connects through the peer's install page, synchronizes the
 * contacts, reads the summary, and disconnects.
 */

const person = integrationPeople.hubspot;
const accountName = person.accountName;

let peer: HubSpotPeer;

test.beforeAll(async () => {
  peer = new HubSpotPeer({ ...peerApps.hubspot, port: peerPorts().hubspot });
  await peer.start();
  peer.addContact({ firstname: 'Rosa', lastname: 'Petal', mobilephone: '+1 415 555 2671' });
  peer.addContact({ firstname: 'Ivan', lastname: 'Ivy', phone: '(415) 555-2672' });
  peer.addContact({ firstname: 'Noel', lastname: 'Nophone', email: 'noel@example.test' });
});

test.afterAll(async () => {
  await peer.stop();
});

test('an administrator connects HubSpot, synchronizes, reads the summary and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/hubspot', person, accountName);
  await expect(page.getByRole('heading', { name: 'HubSpot' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');

  await page.getByRole('button', { name: 'Connect to HubSpot' }).click();
  await page.getByRole('link', { name: 'Connect app' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByText(`HubSpot account ${String(peer.hubId)} (${peer.hubDomain})`)).toBeVisible();
  await expect(page.getByLabel('Mobile property')).toBeVisible();

  await page.getByRole('button', { name: 'Synchronize', exact: true }).click();
  const contacts = page.getByRole('group', { name: 'Contacts sync' });
  await expect(contacts.getByText(/^Contacts: Completed/)).toBeVisible({ timeout: 30_000 });
  await expect(contacts.getByText(/3 records: 2 created, 0 updated, 1 skipped/)).toBeVisible();
  await expect(contacts.getByText('No mobile number: 1 (Noel Nophone)')).toBeVisible();

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect to HubSpot' })).toBeVisible();
});
