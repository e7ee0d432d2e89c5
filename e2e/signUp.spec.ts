import { expect, test } from './fixtures.js';
import { submitSignIn } from './signIn.js';

interface MailboxMessage {
  to: string;
  subject: string;
  text: string;
}

test('sign up, verify through the local mailbox, sign in and create an account', async ({ page, request }) => {
  const email = 'mara.lindqvist@example.test';
  await page.goto(`/signup?email=${encodeURIComponent(email)}&first_name=Mara&last_name=Lindqvist&country=US`);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('First Name')).toHaveValue('Mara');

  const submit = page.getByRole('button', { name: 'Sign Up' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Mobile').fill('415 555 0147');
  await page.locator('input[name="password"]').fill('weakpass');
  await page.getByLabel('I agree to the terms and conditions').check();
  await expect(submit).toBeDisabled();
  await page.getByLabel('I agree to receive communication about my account').check();
  await submit.click();
  await expect(page.getByText('Password is too weak')).toBeVisible();

  await page.locator('input[name="password"]').fill('Northern-Lights-42');
  await submit.click();
  // Signing up leads to /accounts, which asks to sign in first.
  await submitSignIn(page, { email, password: 'Northern-Lights-42' });
  const create = page.getByRole('dialog', { name: 'Create Account' });
  await expect(create).toBeVisible();

  // The verification mail waits in the local mailbox; its link verifies the address.
  const mailbox = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
  const { data } = (await mailbox.json()) as { data: MailboxMessage[] };
  const link = /https?:\/\/\S+\/v1\/verify\?token=[\w-]+/.exec(data[0]?.text ?? '')?.[0];
  expect(link).toBeDefined();
  await page.goto(link ?? '');
  await expect(
    page.getByText('Thank you. Your account has now been verified. You will be shortly redirected to the login page.'),
  ).toBeVisible();
  await page.waitForURL((url) => url.pathname !== '/verified', { timeout: 10_000 });

  await expect(create).toBeVisible();
  await create.getByLabel('Account Name').fill('Lindqvist Bakery');
  await create.getByLabel('One to one').check();
  await create.getByLabel('Business Address').fill('8 Mill Lane, Portland, OR');
  await create.getByLabel('Business Phone').fill('(503) 555-0110');
  await create.getByLabel('Business Email').fill('orders@lindqvist.example');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByTestId('account-name')).toHaveText('Lindqvist Bakery');
  // Verified: no unverified banner.
  await expect(page.getByText('Your email is unverified.')).toBeHidden();
});

test('an unverified user sees the banner and can resend the mail', async ({ page }) => {
  const email = 'ivo.petrov@example.test';
  await page.goto('/signup');
  await page.getByLabel('First Name').fill('Ivo');
  await page.getByLabel('Last Name').fill('Petrov');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mobile').fill('415 555 0162');
  await page.locator('input[name="password"]').fill('Balkan-Sunrise-77');
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByLabel('I agree to receive communication about my account').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await submitSignIn(page, { email, password: 'Balkan-Sunrise-77' });
  const create = page.getByRole('dialog', { name: 'Create Account' });
  await create.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByText('You are not associated with any accounts.')).toBeVisible();
  await expect(page.getByText('Your email is unverified.')).toBeVisible();
  await page.getByRole('button', { name: 'Resend Verification Email' }).click();
  await expect(page.getByRole('button', { name: 'Sent' })).toBeVisible();
});

test('a newcomer finds the sign-up page from the sign-in form', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Sign Up' })).toBeVisible();
});
