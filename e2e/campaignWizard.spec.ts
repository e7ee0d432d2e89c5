import { signInToFreshAccount } from './browserApi.js';
import { nextStep, openWizard } from './campaigns.js';
import { expect, test } from './fixtures.js';

test('the campaign wizard asks before discarding what was typed, and its editor says the length limit', async ({ page }) => {
  test.setTimeout(60_000);
  await signInToFreshAccount(page, 'Wizard Clinic', '/campaigns');
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();

  // Nothing typed: Escape closes at once.
  let wizard = await openWizard(page, 'Manual');
  await page.keyboard.press('Escape');
  await expect(wizard).toBeHidden();
  const discard = page.getByRole('dialog', { name: 'Discard this campaign?' });
  await expect(discard).toHaveCount(0);

  // Something typed: Escape asks; Cancel keeps editing with the text as it was.
  wizard = await openWizard(page, 'Manual');
  const name = wizard.getByRole('textbox', { name: 'Name' });
  await name.fill('Half-written');
  await page.keyboard.press('Escape');
  await expect(discard).toBeVisible();
  await expect(discard).toContainText('What you entered in this campaign is not saved and will be lost.');
  await discard.getByRole('button', { name: 'Cancel' }).click();
  await expect(discard).toBeHidden();
  await expect(wizard).toBeVisible();
  await expect(name).toHaveValue('Half-written');

  // The message editor keeps 1600 characters and says so, in the server's words.
  await wizard.getByRole('combobox', { name: 'Messaging Type' }).click();
  await page.getByRole('option', { name: 'Marketing', exact: true }).click();
  await wizard.getByRole('combobox', { name: 'Outbound Group' }).click();
  // The account's one number, however it is written.
  await page.getByRole('option').filter({ hasText: /\d{4}\)?$/ }).first().click();
  await nextStep(wizard, 'Select Contacts');
  await nextStep(wizard, 'Design Template');
  const message = wizard.getByRole('textbox', { name: 'Message' });
  await message.fill('x'.repeat(5000));
  await expect(message).toHaveValue('x'.repeat(1600));
  await expect(wizard.getByText('At most 1600 characters', { exact: true })).toBeVisible();
  await expect(message).toHaveAccessibleDescription(/^At most 1600 characters/);

  // Cancel and a click beside the wizard ask too; Discard closes it and nothing is saved.
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Cancel' }).click();
  await expect(message).toHaveValue('x'.repeat(1600));
  await page.mouse.click(5, 5);
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Discard' }).click();
  await expect(discard).toBeHidden();
  await expect(wizard).toBeHidden();
  await expect(page.getByText('No Campaigns Exist')).toBeVisible();
});
