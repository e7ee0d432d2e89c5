import type { Page } from '@playwright/test';
import { StripePeer } from '../apps/server/src/modules/billing/payments/stripe/test/stripePeer.js';
import { expect, test } from './fixtures.js';
import { startParley, type ParleyServer } from './parleyServer.js';
import { openSettings } from './settingsDialog.js';
import { signIn } from './signIn.js';

// A Parley of its own on Stripe (the local Stripe peer answers its API calls). js.stripe.com cannot be
// reached from the test machines, and no stand-in for Stripe.js is served: the browser is refused it, and
// Payment Details must say that the card form could not be loaded. The sandbox's deployment (the global
// setup's server) must not ask for Stripe.js at all.

const person = { email: 'stripe-admin@example.test', password: 'Stripe-Card-Form-2026' };
const accountName = 'Pier Bakery';

/** Every script Stripe serves, on any of its release trains (the loader asks for js.stripe.com/<train>/stripe.js). */
const STRIPE_JS = 'https://js.stripe.com/**';

let peer: StripePeer;
let app: ParleyServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  peer = new StripePeer();
  await peer.start();
  app = await startParley({
    env: {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: peer.secretKey,
      STRIPE_WEBHOOK_SECRET: peer.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: peer.publishableKey,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(peer.port),
      STRIPE_API_PROTOCOL: 'http',
    },
    setup: [
      ['create-user', '--email', person.email, '--password', person.password, '--first-name', 'Piet', '--last-name', 'Baker', '--verified'],
      ['create-account', '--owner', person.email, '--name', accountName],
    ],
  });
});

test.afterAll(async () => {
  await app.stop();
  await peer.stop();
});

/** Opens Payment Details from the Plan tab of Account Settings. */
async function openPaymentDetails(page: Page) {
  const settings = await openSettings(page);
  await settings.getByRole('tab', { name: 'Plan' }).click();
  await settings.getByRole('button', { name: /^(Add|Change) Card$/ }).click();
  const payment = page.getByRole('dialog', { name: 'Payment Details' });
  await expect(payment).toBeVisible();
  return payment;
}

test('with Stripe, Payment Details says so when Stripe.js cannot be loaded, and tries again on Retry', async ({ page }) => {
  test.setTimeout(90_000);
  const asked: string[] = [];
  await page.route(STRIPE_JS, async (route) => {
    asked.push(route.request().url());
    await route.abort('failed');
  });

  const config = (await (await page.request.get(`${app.url}/v1/config`)).json()) as { payments: unknown };
  expect(config.payments).toEqual({ provider: 'stripe', stripePublishableKey: peer.publishableKey });
  const home = await page.request.get(`${app.url}/`);
  expect(home.headers()['content-security-policy']).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");

  await signIn(page, `${app.url}/`, person, accountName);
  expect(asked, 'Stripe.js is not loaded before the card form is opened').toEqual([]);
  const payment = await openPaymentDetails(page);

  const failure = payment.getByRole('alert').filter({ hasText: 'The card form could not be loaded' });
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('js.stripe.com');
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every((url) => url.startsWith('https://js.stripe.com/'))).toBe(true);
  // No card can be entered: neither the holder's fields nor Save Card.
  await expect(payment.getByLabel('Card Holder Name')).toHaveCount(0);
  await expect(payment.getByRole('button', { name: 'Save Card' })).toBeDisabled();

  const before = asked.length;
  await failure.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => asked.length).toBeGreaterThan(before);
  await expect(payment.getByRole('alert').filter({ hasText: 'The card form could not be loaded' })).toBeVisible();

  await payment.getByRole('button', { name: 'Cancel' }).click();
  await expect(payment).toBeHidden();
});

test("the sandbox's Payment Details never asks for Stripe.js", async ({ page }) => {
  test.setTimeout(90_000);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname.endsWith('stripe.com')) asked.push(request.url());
  });
  await signIn(page, '/');
  const payment = await openPaymentDetails(page);
  await expect(payment.getByLabel('Card Number')).toBeVisible();
  await payment.getByRole('button', { name: 'Cancel' }).click();
  await expect(payment).toBeHidden();
  expect(asked).toEqual([]);
});
