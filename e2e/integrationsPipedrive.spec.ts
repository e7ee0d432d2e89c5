import { SignJWT } from 'jose';
import { startPipedrivePeer, type PeerPerson, type PipedrivePeer } from '../apps/server/src/modules/integrations/pipedrive/test/pipedrivePeer.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { peerApps, peerPorts, pipedriveJwtSecret } from './peers.js';
import { signIn } from './signIn.js';

/*
 * Pipedrive, end to end: the shared server's Pipedrive OAuth server and API are a local peer
 * (PIPEDRIVE_OAUTH_BASE_URL, PIPEDRIVE_API_BASE_URL; peers.ts). An administrator connects through the authorize page,
 * synchronizes the persons, reads the summary, opens the app extension's signed action link from a person
 * (a new message to that person), and disconnects.
 */

const person = integrationPeople.pipedrive;
const accountName = person.accountName;

let peer: PipedrivePeer;

const pdPerson = (id: number, first: string, last: string, phones: PeerPerson['phones']): PeerPerson => ({
  id,
  name: `${first} ${last}`,
  first_name: first,
  last_name: last,
  emails: [],
  phones,
});

test.beforeAll(async () => {
  peer = await startPipedrivePeer({ ...peerApps.pipedrive, port: peerPorts().pipedrive });
  peer.persons.push(
    pdPerson(1, 'Rosa', 'Rye', [{ value: '+1 415 555 2681', primary: true, label: 'mobile' }]),
    pdPerson(2, 'Ivan', 'Oat', [{ value: '+1 415 555 2682', primary: true, label: 'work' }]),
    pdPerson(3, 'Noel', 'Nophone', []),
  );
});

test.afterAll(async () => {
  await peer.close();
});

test('an administrator connects Pipedrive through its authorize page, synchronizes, sends from a person and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/pipedrive', person, accountName);
  await expect(page.getByRole('heading', { name: 'Pipedrive' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');

  await page.getByRole('button', { name: 'Connect to Pipedrive' }).click();
  await expect(page.getByLabel('Status')).toHaveText(/^Connected since /);
  await expect(page.getByLabel('Company')).toHaveText('Acme Ltd');
  await expect(page.getByLabel('Timeline type')).toBeVisible();

  await page.getByRole('button', { name: 'Synchronize', exact: true }).click();
  const contacts = page.getByRole('group', { name: 'Contacts sync' });
  await expect(contacts.getByText(/^Contacts: Completed/)).toBeVisible({ timeout: 30_000 });
  await expect(contacts.getByText(/2 created, 0 updated, 1 skipped/)).toBeVisible();

  const token = await new SignJWT({ companyId: peer.company.id, userId: 1 }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(pipedriveJwtSecret));
  await page.goto(`/v1/integrations/pipedrive/action?resource=person&view=details&selectedIds=1&companyId=${String(peer.company.id)}&userId=1&token=${token}`);
  await expect(page.getByRole('dialog')).toContainText('Rosa Rye');
  await page.keyboard.press('Escape');
  await page.goto('/integrations/pipedrive');

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect to Pipedrive' })).toBeVisible();
});
