import { expect, test } from './fixtures.js';
import { e2eSocial } from './upstreamIssuer.js';

const continueWith = `Continue with ${e2eSocial.name}`;
/** An address of this run only, so a retry meets a newcomer again. */
const fresh = (name: string) => `${name}.${Date.now().toString(36)}@example.test`;

test('a newcomer continues with the social provider from the sign-up page and meets the first-login checks', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: continueWith }).click();
  // The stand-in provider's own sign-in form: the login typed is the person's (verified) address.
  await page.locator('input[name="login"]').fill(fresh('sol.social'));
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();

  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await expect(terms).toBeVisible();
  await terms.getByRole('button', { name: 'Yes' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  await expect(profile).toBeVisible();
  await expect(profile.getByLabel('First Name')).toHaveValue('Sol');
  await profile.getByLabel('Mobile').fill('415 555 2671');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'Create Account' })).toBeVisible();
  // The address came verified from the provider: no unverified banner.
  await expect(page.getByText('Your email is unverified.')).toBeHidden();
});

test('the sign-in page offers the provider, which signs in the user with the same verified address', async ({ page, request }) => {
  // A user who signed up with a password and verified the address through the local mailbox.
  const email = fresh('lin.link');
  const signUp = await request.post('/v1/signup', {
    data: { firstName: 'Lin', lastName: 'Link', email, mobile: { country: 'US', number: '415 555 0199' }, password: 'Linked-Up-2026', tac: true, communication: true },
  });
  expect(signUp.status()).toBe(201);
  const mailbox = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as { data: { text: string }[] };
  const link = /https?:\/\/\S+\/v1\/verify\?token=[\w-]+/.exec(mailbox.data[0]?.text ?? '')?.[0];
  expect((await request.get(link ?? '', { maxRedirects: 0 })).status()).toBe(303);

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: continueWith }).click();
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The same user: terms and profile were given at sign-up, so no first-login dialog, straight to an account.
  await expect(page.getByRole('dialog', { name: 'Create Account' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Terms and Conditions' })).toBeHidden();
});
