import type { Locator, Page } from '@playwright/test';
import { createdId, type BrowserApi } from './browserApi.js';
import { expect } from './fixtures.js';
import { shownInUs } from './phoneText.js';

export type CampaignTrigger = 'Manual' | 'Scheduled' | 'File Upload';

/**
 * `count` different numbers, consecutive from a random start: a contact's number is unique in its account, and
 * the simulator's virtual phones are shared by every spec, so each run texts phones of its own.
 */
export function distinctMobiles(prefix: string, digits: number, count: number): string[] {
  const start = Math.floor(Math.random() * (10 ** digits - count));
  return Array.from({ length: count }, (_v, i) => `${prefix}${String(start + i).padStart(digits, '0')}`);
}

/** Quiet hours follow the recipient's clock; a run must not depend on the hour it runs at. */
export async function turnOffQuietHours(api: BrowserApi): Promise<void> {
  const answer = await api.page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

export interface SeedContact {
  firstName: string;
  lastName?: string;
  mobile: string;
  tags?: string[];
  blocked?: boolean;
}

/** Seeds contacts through the API (blocking those marked so); answers their ids in order. */
export async function seedContacts(api: BrowserApi, contacts: readonly SeedContact[]): Promise<string[]> {
  const ids: string[] = [];
  for (const contact of contacts) {
    const created = await api.page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
      headers: api.headers,
      data: { firstName: contact.firstName, lastName: contact.lastName ?? '', mobile: { number: contact.mobile }, tags: contact.tags ?? [] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const id = await createdId(created);
    if (contact.blocked === true) {
      const blocked = await api.page.request.put(`/v1/accounts/${api.accountId}/contacts/${id}/block`, { headers: api.headers, data: {} });
      expect(blocked.status(), await blocked.text()).toBe(200);
    }
    ids.push(id);
  }
  return ids;
}

/** The account's sending number as the Outbound Group menu names it. */
export async function senderOption(api: BrowserApi): Promise<string> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/phonenumbers`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  const [number] = ((await answer.json()) as { data: { number: string; name: string; status: string }[] }).data;
  expect(number?.status, 'the account has an active number').toBe('active');
  // As the app shows it: the number as the account's country (US) writes it, after the number's name.
  return number === undefined ? '' : number.name === '' ? shownInUs(number.number) : `${number.name} (${shownInUs(number.number)})`;
}

/** Create Campaign, then the trigger in 'Choose Trigger': the wizard of that trigger. */
export async function openWizard(page: Page, trigger: CampaignTrigger): Promise<Locator> {
  await page.getByRole('main').getByRole('button', { name: 'Create Campaign' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose Trigger' });
  await chooser.getByRole('button', { name: new RegExp(`^${trigger}`) }).click();
  await expect(chooser).toBeHidden();
  const wizard = page.getByRole('dialog', { name: `Create Campaign (${trigger})` });
  await expect(wizard).toBeVisible();
  return wizard;
}

/** The stepper's step names, in order. */
export const stepNames = (wizard: Locator): Locator => wizard.locator('.MuiStepLabel-label');

/** The step on show (the wizard labels its content with the step's name). */
export const stepShown = (wizard: Locator, name: string): Locator => wizard.getByRole('group', { name, exact: true });

/** Next, and the wizard moves on to `to`. */
export async function nextStep(wizard: Locator, to: string): Promise<void> {
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(stepShown(wizard, to)).toBeVisible();
}

/** Opens a select (or autocomplete) and picks one of its options. */
export async function chooseOption(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** General: name, description, messaging type and the outbound group. */
export async function fillGeneral(
  page: Page,
  wizard: Locator,
  fields: { name: string; description: string; messagingType: 'Transactional' | 'Marketing'; group: string },
): Promise<void> {
  await wizard.getByRole('textbox', { name: 'Name' }).fill(fields.name);
  await wizard.getByRole('textbox', { name: 'Description' }).fill(fields.description);
  await chooseOption(page, wizard.getByRole('combobox', { name: 'Messaging Type' }), fields.messagingType);
  await chooseOption(page, wizard.getByRole('combobox', { name: 'Outbound Group' }), fields.group);
  await expect(wizard.getByRole('combobox', { name: 'Messaging Type' })).toHaveText(fields.messagingType);
  await expect(wizard.getByRole('combobox', { name: 'Outbound Group' })).toHaveText(fields.group);
}

/** The campaigns table's row of one campaign (its executions are in the row under it). */
export const campaignRow = (page: Page, name: string): Locator =>
  page.getByRole('table', { name: 'Campaigns' }).getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });

/** What a campaign's row expands into: the table row under it. */
export const executionsOf = (page: Page, name: string): Locator => campaignRow(page, name).locator('xpath=following-sibling::tr[1]');

/** Expands a campaign's row: its executions table. */
export async function showExecutions(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: `Show the executions of ${name}` }).click();
  await expect(page.getByRole('button', { name: `Hide the executions of ${name}` })).toHaveAttribute('aria-expanded', 'true');
  return executionsOf(page, name).getByRole('table', { name: 'Executions' });
}

/** The cells of a table row as text, so a test compares whole rows. */
export const cellTexts = (row: Locator): Promise<string[]> => row.getByRole('cell').allInnerTexts();
