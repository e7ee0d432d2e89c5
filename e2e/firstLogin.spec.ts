import { expect, test } from './fixtures.js';
import { e2eDecliner } from './globalSetup.js';
import { submitSignIn } from './signIn.js';

const newcomer = {
  firstName: 'Noor',
  lastName: 'Haddad',
  email: 'noor.haddad@example.test',
  password: 'First-Login-2026',
};

test('a newcomer who signed up goes straight to creating an account, then home', async ({ page, request }) => {
  const signUp = await request.post('/v1/signup', {
    data: {
      firstName: newcomer.firstName,
      lastName: newcomer.lastName,
      email: newcomer.email,
      password: newcomer.password,
      mobile: { country: 'US', number: '' },
      tac: true,
      communication: true,
    },
  });
  // The mobile is required at sign-up: the API refuses and says why.
  expect(signUp.status()).toBe(400);
  expect(JSON.stringify(await signUp.json())).toContain('Number is missing');

  const created = await request.post('/v1/signup', {
    data: { ...newcomer, mobile: { country: 'US', number: '415 555 0134' }, tac: true, communication: true },
  });
  expect(created.status()).toBe(201);

  await page.goto('/');
  await submitSignIn(page, newcomer);

  // Sign-up already recorded the terms and the mobile: straight to creating an account.
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Required').first()).toBeVisible();
  await expect(dialog.getByText('Must select 1 or more')).toBeVisible();

  await dialog.getByLabel('Account Name').fill('Noor Yoga Studio');
  await dialog.getByLabel('One to one').check();
  await dialog.getByLabel('Business Address').fill('12 Harbour Rd, Sausalito, CA');
  await dialog.getByLabel('Business Phone').fill('(415) 555-0199');
  await dialog.getByLabel('Business Email').fill('hello@noor.example');
  await dialog.getByRole('button', { name: 'Create' }).click();

  await expect(page.getByTestId('account-name')).toHaveText('Noor Yoga Studio');
  await expect(page.getByRole('main').getByRole('link', { name: 'Contacts' })).toBeVisible();
});

test('declining the terms signs the user out', async ({ page }) => {
  await page.goto('/');
  await submitSignIn(page, e2eDecliner);
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await terms.getByRole('button', { name: 'No' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
