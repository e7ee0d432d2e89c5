import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';

// A Google Contacts export as people download it: labels, several numbers in one cell, a row without one.
const googleExport = [
  'First Name,Middle Name,Last Name,Nickname,Organization Name,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value',
  'Ann,,Lee,Annie,Harbor Dental,* myContacts ::: Patients,* Home,ann.lee@example.com,Mobile,+1 415-555-2671,Home,+1 415-555-0100',
  'Bob,J,Okafor,,,* myContacts ::: Patients,* Work,bob.okafor@example.com,Mobile,(415) 555-2672 ::: (415) 555-9999,,',
  'Chloé,,Martin,,,* myContacts,,,Mobile,+44 7400 123456,,',
  'Dan,,Wu,,,* myContacts,,,Home,,,',
  '',
].join('\r\n');

test('upload contacts: choose a CSV, map its fields, read the summary', async ({ page }) => {
  test.setTimeout(90_000);
  await signInToFreshAccount(page, 'Import Clinic', '/contacts');
  await page.goto('/contacts');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Contacts' });
  await expect(dialog.getByText('Upload CSV')).toBeVisible();
  const next = dialog.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();

  // A file in another encoding is refused with the product's words, and Next stays disabled.
  const input = dialog.getByTestId('import-file-input');
  await input.setInputFiles({ name: 'latin1.csv', mimeType: 'text/csv', buffer: Buffer.from('mobile,name\n+14155552671,Zo\xeb\n', 'latin1') });
  await expect(dialog.getByText('Unable to process CSV file')).toBeVisible();
  await expect(dialog.getByText(/line 2 has characters in another encoding/)).toBeVisible();
  await expect(next).toBeDisabled();
  await input.setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('mobile,name\n') });
  await expect(dialog.getByText('The file has a header row but no contacts under it.')).toBeVisible();
  await expect(next).toBeDisabled();

  await input.setInputFiles({ name: 'google-contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(googleExport, 'utf8') });
  await expect(dialog.getByText('4 rows · Google Contacts export')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'File preview' })).toContainText('Chloé');
  await next.click();

  // Field Mapping: the automatic mapping, the mandatory check, the account's country as the default.
  await expect(dialog.getByRole('combobox', { name: 'Import Phone 1 - Value as' })).toHaveText('Mobile');
  await expect(dialog.getByRole('combobox', { name: 'Import Labels as' })).toHaveText('Tags');
  await expect(dialog.getByRole('combobox', { name: 'Import Organization Name as' })).toHaveText('organizationName');
  await expect(dialog.getByRole('combobox', { name: 'Import Phone 2 - Value as' })).toHaveText('Ignore');
  await expect(dialog.getByRole('combobox', { name: 'Default Country' })).toHaveText('United States');
  await dialog.getByRole('combobox', { name: 'Import Phone 1 - Value as' }).click();
  await page.getByRole('option', { name: 'Ignore' }).click();
  await expect(dialog.getByText('Missing Mandatory Field: You must specify a field mapping for mobile')).toBeVisible();
  const importButton = dialog.getByRole('button', { name: 'Import' });
  await expect(importButton).toBeDisabled();
  await dialog.getByRole('combobox', { name: 'Import Phone 1 - Value as' }).click();
  await page.getByRole('option', { name: 'Mobile' }).click();
  await expect(dialog.getByText(/Missing Mandatory Field/)).toBeHidden();
  await importButton.click();

  // Summary: the progress bar gives way to the result, and says which rows did not go in.
  const summary = dialog.getByRole('table', { name: 'Import summary' });
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(summary.getByRole('row', { name: 'Submitted' })).toContainText('4');
  await expect(summary.getByRole('row', { name: 'Success' })).toContainText('3');
  await expect(summary.getByRole('row', { name: 'Missing Mobile' })).toContainText('1');
  await expect(summary.getByRole('row', { name: 'Duplicates' })).toContainText('0');
  await expect(dialog.getByText('Every row went in except the one listed below.')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Rows not imported' }).getByRole('row', { name: '5 Number is missing' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  const grid = page.getByRole('grid', { name: 'Contacts' });
  await expect(grid.getByRole('row').filter({ hasText: '(415) 555-2671' })).toContainText('Ann');
  await expect(grid.getByRole('row').filter({ hasText: '+44 7400 123456' })).toContainText('Chloé');
  await expect(grid.getByRole('row')).toHaveCount(4);
});
