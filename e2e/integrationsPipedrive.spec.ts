import { SignJWT } from 'jose';
import { startPipedrivePeer, type PeerPerson, type PipedrivePeer } from '../apps/server/src/modules/integrations/pipedrive/test/pipedrivePeer.js';
import { expect, test } from './fixtures.js';
import { startParley, type ParleyServer } from './parleyServer.js';
import { signIn } from './signIn.js';

/*
 * Pipedrive, end to end: a Parley of its own whose Pipedrive OAuth server and API are a local peer
 * (PIPEDRIVE_OAUTH_BASE_URL, PIPEDRIVE_API_BASE_URL). An administrator connects through the authorize page,
 * synchronizes the persons, reads the summary, opens the app extension's signed action link from a person
 * (a new message to that person), and disconnects.
 */

const JWT_SECRET = 'pipedrive-app-extension-secret-e2e';

const person = { email: 'pia.pipeline@example.test', password: 'Pipedrive-Secret-2026' };
const accountName = 'Quayside Bakery';

let peer: PipedrivePeer;
let server: ParleyServer;

const pdPerson = (id: number, first: string, last: string, phones: PeerPerson['phones']): PeerPerson => ({
  id,
  name: `${first} ${last}`,
  first_name: first,
  last_name: last,
  emails: [],
  phones,
});

test.beforeAll(async () => {
  test.setTimeout(180_000);
  peer = await startPipedrivePeer();
  peer.persons.push(
    pdPerson(1, 'Rosa', 'Rye', [{ value: '+1 415 555 2681', primary: true, label: 'mobile' }]),
    pdPerson(2, 'Ivan', 'Oat', [{ value: '+1 415 555 2682', primary: true, label: 'work' }]),
    pdPerson(3, 'Noel', 'Nophone', []),
  );
  server = await startParley({
    env: { PIPEDRIVE_CLIENT_ID: peer.clientId, PIPEDRIVE_CLIENT_SECRET: peer.clientSecret, PIPEDRIVE_API_BASE_URL: peer.url, PIPEDRIVE_OAUTH_BASE_URL: peer.url, PIPEDRIVE_JWT_SECRET: JWT_SECRET },
    setup: [
      ['create-user', '--email', person.email, '--password', person.password, '--first-name', 'Pia', '--last-name', 'Pipeline', '--verified'],
      ['create-account', '--owner', person.email, '--name', accountName],
    ],
  });
});

test.afterAll(async () => {
  await server.stop();
  await peer.close();
});

test('an administrator connects Pipedrive through its authorize page, synchronizes, sends from a person and disconnects', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, `${server.url}/integrations/pipedrive`, person, accountName);
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

  const token = await new SignJWT({ companyId: peer.company.id, userId: 1 }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(JWT_SECRET));
  await page.goto(`${server.url}/v1/integrations/pipedrive/action?resource=person&view=details&selectedIds=1&companyId=${String(peer.company.id)}&userId=1&token=${token}`);
  await expect(page.getByRole('dialog')).toContainText('Rosa Rye');
  await page.keyboard.press('Escape');
  await page.goto(`${server.url}/integrations/pipedrive`);

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await expect(page.getByRole('button', { name: 'Connect to Pipedrive' })).toBeVisible();
});
