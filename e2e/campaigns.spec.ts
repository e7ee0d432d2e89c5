import type { Page } from '@playwright/test';
import { freshAccount, type BrowserApi } from './browserApi.js';
import { tinyPng } from './inbox.js';
import {
  campaignRow,
  cellTexts,
  chooseOption,
  distinctMobiles,
  executionsOf,
  fillGeneral,
  nextStep,
  openWizard,
  seedContacts,
  senderOption,
  showExecutions,
  stepNames,
  stepShown,
  turnOffQuietHours,
} from './campaigns.js';
import { expect, test } from './fixtures.js';
import { shownInUs } from './phoneText.js';
import { signIn } from './signIn.js';

/** Snackbars take turns, 5 s each: a notice may wait for the one before it to hide. */
const queuedNotice = { timeout: 12_000 };

/** Trial plan prices per segment (docs/decisions.md, Plans): US SMS and GB SMS. */
const US_SMS = 0.012;
const GB_SMS = 0.048;

const RECALL_TEXT =
  'Hi {{{firstName}}}, it is time for your six-monthly check-up at Harbor Dental. Reply YES and we will call you to book, or STOP to opt out.';
const render = (firstName: string): string => RECALL_TEXT.replace('{{{firstName}}}', firstName);
/** GSM-7: one segment up to 160 characters, 153 per segment beyond. */
const segmentsOf = (text: string): number => (text.length <= 160 ? 1 : Math.ceil(text.length / 153));

// 628 (San Francisco) is an area code no other spec texts.
const us = distinctMobiles('+1628555', 4, 8);
const [gb] = distinctMobiles('+4474001', 5, 1);

// The Manual campaign's audience: the 'recall' tag picks five; one of them is blocked.
const recall = [
  { firstName: 'Ann', lastName: 'Lee', mobile: us[0] ?? '', tags: ['recall'] },
  { firstName: 'Bob', lastName: 'Okafor', mobile: us[1] ?? '', tags: ['recall', 'vip'] },
  { firstName: 'Maximiliana-Josephina-Theodora-Wilhelmina', lastName: 'Long', mobile: us[2] ?? '', tags: ['recall'] },
  { firstName: 'Chloe', lastName: 'Martin', mobile: gb ?? '', tags: ['recall'] },
];
const seeded = [
  ...recall,
  { firstName: 'Dan', lastName: 'Wu', mobile: us[3] ?? '', tags: ['recall'], blocked: true },
  // Not tagged: only the Scheduled campaign's chosen contact, and her neighbour it must not pick.
  { firstName: 'Ivy', lastName: 'Nolan', mobile: us[4] ?? '' },
  { firstName: 'Jon', lastName: 'Park', mobile: us[5] ?? '' },
];
// The File Upload campaign's rows, written as people type numbers of the account's country (US).
const gina = (us[6] ?? '').slice(2);
const hal = (us[7] ?? '').slice(2);

// One person, one new account, the campaigns of each trigger in turn (the report reads the Manual run).
test.describe.configure({ mode: 'serial', timeout: 90_000 });

let page: Page;
let api: BrowserApi;
let sender: string;

test.beforeAll(async ({ browser }) => {
  // Dates and times on the page follow the browser's locale and zone: pin them, so expected texts are exact.
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: 'en-US', timezoneId: 'America/Chicago' });
  page = await context.newPage();
  // The first page a just-started server serves can take longer than an expectation's 5 s on a busy machine.
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
  await signIn(page, '/campaigns');
  api = await freshAccount(page, 'Campaign Clinic');
  await turnOffQuietHours(api);
  sender = await senderOption(api);
  await seedContacts(api, seeded);
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
});

test.afterAll(async () => {
  await page.context().close();
});

test('campaigns: a Manual campaign is refused until valid, saved, previewed at the seeded price, executed and listed', async () => {
  // What the seeded data implies: four recipients (Dan is blocked; Ivy and Jon are not tagged), priced per
  // segment and country.
  const segments = recall.map((c) => segmentsOf(render(c.firstName)));
  expect(segments).toEqual([1, 1, 2, 1]);
  const expectedPrice = (US_SMS * (1 + 1 + 2) + GB_SMS * 1).toFixed(4);
  await expect(page.getByText('No Campaigns Exist')).toBeVisible();

  const wizard = await openWizard(page, 'Manual');
  await expect(stepNames(wizard)).toHaveText(['General', 'Select Contacts', 'Design Template', 'Reporting', 'Summary']);
  await expect(stepShown(wizard, 'General')).toBeVisible();

  // General refuses to move on while the required fields are empty.
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(stepShown(wizard, 'General')).toBeVisible();
  await expect(wizard.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Required');
  await expect(wizard.getByRole('combobox', { name: 'Messaging Type' })).toHaveAccessibleDescription('Required');
  await expect(wizard.getByRole('combobox', { name: 'Outbound Group' })).toHaveAccessibleDescription('Required');
  await fillGeneral(page, wizard, { name: 'Recall', description: 'Six-monthly check-up reminder', messagingType: 'Marketing', group: sender });
  for (const field of [wizard.getByRole('textbox', { name: 'Name' }), wizard.getByRole('combobox', { name: 'Messaging Type' })]) {
    await expect(field).not.toHaveAccessibleDescription('Required');
  }
  await expect(wizard.getByRole('combobox', { name: 'Outbound Group' })).toHaveAccessibleDescription(
    'Messages go out from a number of this group, or from this number.',
  );
  await nextStep(wizard, 'Select Contacts');

  // Select Contacts: the 'recall' tag.
  const tags = wizard.getByRole('combobox', { name: 'Tags' });
  await tags.fill('recall');
  await tags.press('Enter');
  await expect(wizard.getByRole('button', { name: 'recall' })).toBeVisible();
  await nextStep(wizard, 'Design Template');

  // Design Template: nothing to send is refused.
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(stepShown(wizard, 'Design Template')).toBeVisible();
  await expect(wizard.getByText('Enter a message or attach media')).toBeVisible();
  await wizard.getByRole('textbox', { name: 'Message' }).fill(RECALL_TEXT);
  await expect(wizard.getByText('Enter a message or attach media')).toBeHidden();
  await nextStep(wizard, 'Reporting');

  // Reporting: the delay is required and numeric, the destinations are addresses separated by semicolons.
  await wizard.getByLabel('E-mail a report of each execution').check();
  const delay = wizard.getByRole('textbox', { name: 'Delay' });
  const destinations = wizard.getByRole('textbox', { name: 'Destinations' });
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(stepShown(wizard, 'Reporting')).toBeVisible();
  await expect(delay).toHaveAccessibleDescription('Required');
  await expect(destinations).toHaveAccessibleDescription('Required');
  await delay.fill('half an hour');
  await destinations.fill('front@harbor.test, dr.lee@harbor.test');
  await expect(delay).toHaveAccessibleDescription('Must be a number');
  await expect(destinations).toHaveAccessibleDescription('Invalid email address');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(stepShown(wizard, 'Reporting')).toBeVisible();
  await delay.fill('30');
  await chooseOption(page, wizard.getByRole('combobox', { name: 'Unit' }), 'Minutes');
  await destinations.fill('front@harbor.test; Dr.Lee@harbor.test');
  await expect(delay).toHaveAccessibleDescription('A whole number up to 999');
  await expect(destinations).toHaveAccessibleDescription('E-mail addresses separated by semicolons');
  await nextStep(wizard, 'Summary');

  // Summary: the campaign as it will be saved.
  const summary = wizard.getByRole('table', { name: 'Summary' });
  await expect(summary.getByRole('row', { name: /^Name/ })).toHaveText('NameRecall');
  await expect(summary.getByRole('row', { name: /^Type/ })).toHaveText('TypeManual');
  await expect(summary.getByRole('row', { name: /^Messaging Type/ })).toHaveText('Messaging TypeMarketing');
  await expect(summary.getByRole('row', { name: /^Contacts/ })).toHaveText('Contactstags recall');
  await expect(summary.getByRole('row', { name: /^Reporting/ })).toHaveText('Reporting30 minutes to front@harbor.test; Dr.Lee@harbor.test');
  await wizard.getByRole('button', { name: 'Save' }).click();
  await expect(wizard).toBeHidden();
  await expect(page.getByText('Campaign added')).toBeVisible(queuedNotice);

  // 'Execute Campaign?', then the preview: the contacts and the price the seeded data implies.
  const ask = page.getByRole('dialog', { name: 'Execute Campaign?' });
  await ask.getByRole('button', { name: 'Execute Now' }).click();
  const preview = page.getByRole('dialog', { name: 'Execute Now: Recall' });
  const figures = preview.getByRole('table', { name: 'Preview' });
  await expect(figures.getByRole('row', { name: /^Contacts/ })).toHaveText(['Contacts4']);
  await expect(figures.getByRole('row', { name: /^Estimated Price/ })).toHaveText([`Estimated Price$${expectedPrice}`]);
  await expect(figures.getByRole('row', { name: /^Left Out/ })).toHaveText(['Left Out1']);
  await expect(figures.getByRole('row', { name: /^Blocked/ })).toHaveText(['Blocked1']);
  await expect(preview.getByText('Insufficient Credit')).toBeHidden();
  await preview.getByRole('button', { name: 'Execute', exact: true }).click();
  await expect(preview).toBeHidden();
  await expect(page.getByText('Campaign executed')).toBeVisible(queuedNotice);

  // The list counts the run; the row expands into it, sent to all four and charged the estimate.
  const row = campaignRow(page, 'Recall');
  await expect(row.getByRole('cell').nth(5)).toHaveText('1');
  await expect(row.getByRole('cell').nth(6)).not.toBeEmpty();
  await expect(row.getByRole('cell').nth(3)).toHaveText('Manual');
  const executions = await showExecutions(page, 'Recall');
  const run = executions.getByRole('row').nth(1);
  await expect(executions.getByRole('row')).toHaveCount(2);
  await expect.poll(() => cellTexts(run).then((cells) => cells.slice(1, 6)), { timeout: 15_000 }).toEqual(['4 of 4', '1', '0', '0', `$${expectedPrice}`]);
});

test('campaigns: a Scheduled campaign for one chosen contact shows its next execution in the list', async () => {
  // Mid-March of next year: London is on GMT and Chicago on CDT (UTC-5) every year then.
  const year = new Date().getFullYear() + 1;
  const wizard = await openWizard(page, 'Scheduled');
  await expect(stepNames(wizard)).toHaveText(['General', 'Schedule', 'Select Contacts', 'Design Template', 'Reporting']);
  await fillGeneral(page, wizard, { name: 'Annual Review', description: '', messagingType: 'Transactional', group: sender });
  await nextStep(wizard, 'Schedule');

  // Once, at 14:00 London time: 9:00 in the browser's Chicago.
  await expect(wizard.getByRole('combobox', { name: 'Frequency' })).toHaveText('Once');
  await wizard.getByRole('textbox', { name: 'Date', exact: true }).fill(`${String(year)}-03-15`);
  await wizard.getByRole('textbox', { name: 'Time', exact: true }).fill('14:00');
  const zone = wizard.getByRole('combobox', { name: 'Time Zone' });
  await expect(zone).toHaveValue('America/Chicago');
  await zone.fill('Europe/Lon');
  await page.getByRole('option', { name: 'Europe/London', exact: true }).click();
  await expect(zone).toHaveValue('Europe/London');
  await expect(wizard.getByRole('alert')).toContainText(`Next execution: 3/15/${String(year)}, 9:00:00`);
  await nextStep(wizard, 'Select Contacts');

  // Only Ivy, found by name.
  const contacts = wizard.getByRole('combobox', { name: 'Contacts' });
  await contacts.fill('Ivy');
  await page.getByRole('option', { name: /^Ivy Nolan/ }).click();
  await expect(wizard.getByRole('button', { name: 'Ivy Nolan' })).toBeVisible();
  await nextStep(wizard, 'Design Template');
  await wizard.getByRole('textbox', { name: 'Message' }).fill('Hi {{{firstName}}}, your annual review with Harbor Dental is due. Reply to book.');
  // With a picture: uploaded here, sent with every message.
  await wizard.getByRole('button', { name: 'Attach' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload File' });
  await upload.getByLabel('Picture to upload').setInputFiles({ name: 'clinic-map.png', mimeType: 'image/png', buffer: tinyPng() });
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload).toBeHidden({ timeout: 15_000 });
  await expect(wizard.getByText('clinic-map.png')).toBeVisible();
  await nextStep(wizard, 'Reporting');
  // Reporting is the last step of a Scheduled campaign: Save is here, and Next is not.
  await expect(wizard.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await wizard.getByRole('button', { name: 'Save' }).click();
  await expect(wizard).toBeHidden();
  await expect(page.getByText('Campaign added')).toBeVisible(queuedNotice);

  // A Scheduled campaign runs on its schedule: no question; the list shows when.
  await expect(page.getByRole('dialog', { name: 'Execute Campaign?' })).toHaveCount(0);
  const row = campaignRow(page, 'Annual Review');
  await expect(row.getByRole('cell').nth(3)).toHaveText('Scheduled');
  await expect(row.getByRole('cell').nth(5)).toHaveText('0');
  await expect(row.getByRole('cell').nth(6)).toHaveText('');
  await expect(row.getByRole('cell').nth(7)).toHaveText(new RegExp(`^3/15/${String(year % 100)}, 9:00\\sAM$`));
  const executions = await showExecutions(page, 'Annual Review');
  await expect(executions).toHaveCount(0);
  await expect(executionsOf(page, 'Annual Review').getByText('Not executed yet.')).toBeVisible();
  // The picture was saved with it, and shows again when it is edited.
  const saved = await page.request.get(`/v1/accounts/${api.accountId}/campaigns?limit=50`, { headers: api.headers });
  const annual = ((await saved.json()) as { data: { name: string; media: { filename: string; type: string }[] }[] }).data.find((c) => c.name === 'Annual Review');
  expect(annual?.media).toEqual([expect.objectContaining({ filename: 'clinic-map.png', type: 'image/png' })]);
  await row.getByRole('button', { name: 'Edit Annual Review' }).click();
  const editing = page.getByRole('dialog', { name: 'Edit Campaign (Scheduled)' });
  await editing.getByRole('tab', { name: 'Design Template' }).click();
  await expect(editing.getByText('clinic-map.png')).toBeVisible();
  await editing.getByRole('button', { name: 'Cancel' }).click();
  await expect(editing).toBeHidden();
});

test('campaigns: a File Upload campaign maps the mobile, then a CSV uploaded now texts its rows', async () => {
  // 'Patient Number' is not a header the mapping knows for a mobile: it is chosen by hand.
  const file = [
    'Patient Number,First Name,Visit Time',
    `(${gina.slice(0, 3)}) ${gina.slice(3, 6)}-${gina.slice(6)},Gina,9:30`,
    `${hal},Hal,11:00`,
    ',Ida,12:15',
    '',
  ].join('\r\n');
  const csv = { name: 'tomorrow.csv', mimeType: 'text/csv', buffer: Buffer.from(file, 'utf8') };
  const wizard = await openWizard(page, 'File Upload');
  await expect(stepNames(wizard)).toHaveText(['General', 'File Upload', 'Field Mapping', 'Design Template', 'Reporting']);
  await fillGeneral(page, wizard, { name: 'Tomorrow', description: 'Visits of the day after', messagingType: 'Transactional', group: sender });
  await nextStep(wizard, 'File Upload');
  await stepShown(wizard, 'File Upload').locator('input[type="file"]').setInputFiles(csv);
  await expect(wizard.getByText('Columns: Patient Number, First Name, Visit Time')).toBeVisible();
  await nextStep(wizard, 'Field Mapping');

  // Field Mapping: without the mobile it is refused.
  await expect(wizard.getByRole('combobox', { name: 'Field for First Name' })).toHaveValue('First Name');
  await expect(wizard.getByRole('combobox', { name: 'Field for Visit Time' })).toHaveValue('visitTime');
  const number = wizard.getByRole('combobox', { name: 'Field for Patient Number' });
  await expect(number).toHaveValue('patientNumber');
  await number.clear();
  await number.blur();
  await expect(number).toHaveValue('');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(stepShown(wizard, 'Field Mapping')).toBeVisible();
  await expect(wizard.getByRole('alert')).toHaveText('Missing Mandatory Field: You must specify a field mapping for mobile');
  await chooseOption(page, number, 'Mobile');
  await expect(number).toHaveValue('Mobile');
  await expect(wizard.getByRole('alert')).toBeHidden();
  await nextStep(wizard, 'Design Template');
  await wizard.getByRole('textbox', { name: 'Message' }).fill('Hi {{{firstName}}}, see you tomorrow at {{{visitTime}}}. Harbor Dental');
  await nextStep(wizard, 'Reporting');
  await expect(wizard.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await wizard.getByRole('button', { name: 'Save' }).click();
  await expect(wizard).toBeHidden();

  // Not now: the file is uploaded from the campaign's row instead.
  const ask = page.getByRole('dialog', { name: 'Execute Campaign?' });
  await expect(ask.getByRole('button', { name: 'Upload File Now' })).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  const row = campaignRow(page, 'Tomorrow');
  await expect(row.getByRole('cell').nth(3)).toHaveText('File Upload');
  await row.getByRole('button', { name: 'Upload File Now: Tomorrow' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload File Now: Tomorrow' });
  const execute = upload.getByRole('button', { name: 'Execute' });
  await expect(execute).toBeDisabled();
  await upload.locator('input[type="file"]').setInputFiles(csv);
  await expect(upload.getByText('tomorrow.csv: 3 rows')).toBeVisible();
  await execute.click();
  await expect(upload).toBeHidden();
  await expect(page.getByText('Campaign executed')).toBeVisible(queuedNotice);

  // Two rows texted at one US segment each; the row without a number is left out.
  await expect(row.getByRole('cell').nth(5)).toHaveText('1');
  const executions = await showExecutions(page, 'Tomorrow');
  const run = executions.getByRole('row').nth(1);
  await expect.poll(() => cellTexts(run).then((cells) => cells.slice(1, 6)), { timeout: 15_000 }).toEqual(['2 of 2', '1', '0', '0', `$${(US_SMS * 2).toFixed(4)}`]);

  // The rows made their contacts, with the file's values.
  await page.goto('/contacts');
  const grid = page.getByRole('grid', { name: 'Contacts' });
  await expect(grid.getByRole('row').filter({ hasText: shownInUs(`+1${gina}`) })).toContainText('Gina');
  await expect(grid.getByRole('row').filter({ hasText: shownInUs(`+1${hal}`) })).toContainText('Hal');
});

interface ApiMessage {
  direction: 'inbound' | 'outbound';
  status: string;
}

/** The account's messages as the API lists them (newest first). */
async function messagesOf(): Promise<ApiMessage[]> {
  const answer = await page.request.get(`/v1/accounts/${api.accountId}/messages?limit=50`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: ApiMessage[] }).data;
}

test('campaigns: the Manual run\'s Message Report charts its delivered messages and the reply', async () => {
  // The simulator delivers the four recall texts (and the two file rows' texts), and Ann answers hers.
  await expect
    .poll(async () => (await messagesOf()).filter((m) => m.direction === 'outbound' && m.status === 'delivered').length, { timeout: 20_000 })
    .toBe(6);
  const ann = recall[0]?.mobile ?? '';
  // The finished execution, on show: no reply yet.
  await page.goto('/campaigns');
  const executions = await showExecutions(page, 'Recall');
  const run = executions.getByRole('row').nth(1);
  await expect.poll(() => cellTexts(run).then((cells) => cells.slice(1, 5))).toEqual(['4 of 4', '1', '0', '0']);
  // At 1280 px beside the menu, every column shows without scrolling sideways, executions open.
  expect(page.viewportSize()?.width).toBe(1280);
  const container = page.getByRole('table', { name: 'Campaigns' }).locator('xpath=..');
  expect(await container.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);

  // Ann answers from her virtual phone, in another tab.
  const simulator = await page.context().newPage();
  await simulator.goto('/simulator');
  const phone = simulator.getByRole('region', { name: shownInUs(ann) });
  await expect(phone.getByText(render('Ann'))).toBeVisible();
  await phone.getByRole('textbox', { name: `Reply from ${shownInUs(ann)}` }).fill('YES please, mornings are best');
  await phone.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(async () => (await messagesOf()).filter((m) => m.direction === 'inbound').length, { timeout: 20_000 }).toBe(1);

  // The execution counts the reply without a reload.
  await expect.poll(() => cellTexts(run).then((cells) => cells.slice(1, 5)), { timeout: 15_000 }).toEqual(['4 of 4', '1', '0', '1']);
  await simulator.close();

  // The Message Report: the outgoing messages by status (a donut and its figures), then the reply.
  await run.getByRole('button', { name: 'Report' }).click();
  const report = page.getByRole('dialog', { name: 'Message Report' });
  await expect(report.getByText('Done', { exact: true })).toBeVisible();
  const outgoing = report.getByRole('button', { name: 'Outgoing', exact: true });
  const incoming = report.getByRole('button', { name: 'Incoming', exact: true });
  await expect(outgoing).toHaveAttribute('aria-pressed', 'true');
  await expect(incoming).toHaveAttribute('aria-pressed', 'false');
  // The donut (an svg of @mui/x-charts): one arc, as every message is delivered.
  const chart = (direction: string) => report.locator(`svg[aria-label="${direction} messages by status"]`);
  await expect(chart('Outgoing')).toBeVisible();
  await expect(chart('Outgoing').locator('path')).toHaveCount(1);
  const sent = report.getByRole('table', { name: 'Outgoing messages by status' });
  await expect(sent.getByRole('row')).toHaveText(['StatusMessages', 'Delivered4', 'Total4']);
  // Dan was left out: blocked.
  const invalid = report.getByRole('table', { name: 'Invalid contacts' });
  await expect(report.getByRole('heading', { name: 'Invalid Contacts (1)' })).toBeVisible();
  await expect(invalid.getByRole('row').nth(1)).toContainText('Dan Wu');
  await expect(invalid.getByRole('row').nth(1)).toContainText('Blocked');

  await incoming.click();
  await expect(incoming).toHaveAttribute('aria-pressed', 'true');
  const replies = report.getByRole('table', { name: 'Incoming messages by status' });
  await expect(replies.getByRole('row')).toHaveText(['StatusMessages', 'Received1', 'Total1']);
  await expect(sent).toBeHidden();
  await expect(chart('Incoming')).toBeVisible();
  await expect(chart('Incoming').locator('path')).toHaveCount(1);
  await expect(chart('Outgoing')).toHaveCount(0);
  await report.getByRole('button', { name: 'Close' }).click();
  await expect(report).toBeHidden();
});
