import { createTransport } from 'nodemailer';
import { accessTokenOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { integrationPeople } from './integrationPeople.js';
import { inboundMailDomain, peerPorts } from './peers.js';
import { signIn } from './signIn.js';

/*
 * The Email integration, end to end: the shared server has inbound mail on (INBOUND_MAIL_DOMAIN, a listener
 * on the port peers.ts chose). An administrator enables Email, reads the address, allows a sender; a mail
 * sent with nodemailer to the listener shows in the log and its text in the conversations.
 */

const person = integrationPeople.email;
const accountName = person.accountName;
const domain = inboundMailDomain;

test('an administrator enables Email, and a mail to the address is texted, logged and in the conversations', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/integrations/email', person, accountName);
  const headers = { authorization: `Bearer ${await accessTokenOf(page)}` };
  const accounts = (await (await page.request.get('/v1/accounts', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === accountName)?.id ?? '';
  // A retry starts where the first try began: Email off (the account is this spec's alone).
  const gone = await page.request.delete(`/v1/accounts/${accountId}/integrations/email/disconnect`, { headers });
  expect([200, 409], await gone.text()).toContain(gone.status());
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Email' })).toBeVisible();
  await page.getByRole('button', { name: 'Enable Email' }).click();
  const address = page.getByLabel('Account address');
  await expect(address).toHaveText(new RegExp(`^[a-z0-9]{12}@${domain.replace(/\./g, '\\.')}$`));
  const token = ((await address.textContent()) ?? '').split('@')[0] ?? '';

  const form = page.getByRole('form', { name: 'Properties' });
  await form.getByLabel('Allowed senders').fill('not an address');
  await expect(form.getByText('Enter an e-mail address or @domain: not an address')).toBeVisible();
  await form.getByLabel('Allowed senders').fill('@quay.test');
  // After a save the page asks again for its record and for the mail log. The log is held back here so the
  // record, with the saved properties, comes first and remounts the form before the save has settled:
  // the saved message must show all the same (a busy machine once ordered the answers so).
  const mailLog = '**/integrations/email/mails';
  await page.route(mailLog, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.fallback();
  });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Properties have been saved')).toBeVisible();
  await page.unroute(mailLog);

  // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
  const hours = await page.request.put(`/v1/accounts/${accountId}`, { headers, data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } } });
  expect(hours.status(), await hours.text()).toBe(200);

  const mobile = `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`;
  const smtp = createTransport({ host: '127.0.0.1', port: peerPorts().inboundSmtp, secure: false, ignoreTLS: true });
  await smtp.sendMail({
    from: 'Dispatch <dispatch@quay.test>',
    to: `${mobile.slice(1)}.${token}@${domain}`,
    subject: 'Pickup',
    text: 'Your courier arrives at 10:30.\n\nSent from my iPhone',
  });
  smtp.close();

  const log = page.getByRole('table', { name: 'Received mail' });
  // This try's mail: the log keeps an earlier try's, to another number.
  const received = log.getByRole('row').filter({ hasText: `Sent to ${mobile}` });
  await expect(received.getByText('dispatch@quay.test')).toBeVisible({ timeout: 15_000 });

  // On a phone the page fits the screen; the log scrolls within itself.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel('Account address')).toBeVisible();
  await expect(received.getByText('dispatch@quay.test')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.goto('/conversations');
  await expect(page.getByText('Your courier arrives at 10:30.').first()).toBeVisible({ timeout: 15_000 });
});
