import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Locator, Page } from '@playwright/test';
import type { BrowserApi } from './browserApi.js';
import { expect } from './fixtures.js';
import { mailsTo } from './settingsDialog.js';
import { submitSignIn } from './signIn.js';

const pngChunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
};

/**
 * A small valid PNG (RGB, a diagonal two-colour pattern) made here, so the upload carries real bytes that
 * the server's image check and resize accept, without a fixture file.
 */
export function tinyPng(size = 24): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then the pixels
    for (let x = 0; x < size; x++) {
      const teal = x >= y;
      row.set(teal ? [0, 128, 128] : [250, 200, 40], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

async function mailLink(page: Page, to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        link = (await mailsTo(page, to)).map((mail) => pattern.exec(mail.text)?.[0]).find((found) => found !== undefined);
        return link;
      },
      { message: `a mail to ${to} with a link like ${String(pattern)}`, timeout: 15_000 },
    )
    .toBeDefined();
  return link ?? '';
}

export interface Colleague {
  page: Page;
  close(): Promise<void>;
}

/**
 * A second person in a browser of their own: invited to the account (by the API, as its administrator),
 * signed up and verified through the API (the mailed link's verification), then signed in on the account
 * through the issuer's pages. The sign-up and verification pages of an invited person are the settings
 * spec's to walk; here the colleague is only a second viewer.
 */
export async function inviteColleague(browser: Browser, baseURL: string, admin: BrowserApi, role: 'Administrator' | 'Sender'): Promise<Colleague> {
  const person = {
    firstName: 'Bea',
    lastName: 'Second',
    email: `bea.second.${randomUUID().slice(0, 8)}@example.test`,
    password: 'Second-Desk-Inbox-2026',
  };
  const invited = await admin.page.request.post(`/v1/accounts/${admin.accountId}/users`, {
    headers: admin.headers,
    data: { firstName: person.firstName, lastName: person.lastName, email: person.email, role },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const account = await admin.page.request.get(`/v1/accounts/${admin.accountId}`, { headers: admin.headers });
  expect(account.status(), await account.text()).toBe(200);
  const accountName = ((await account.json()) as { data: { name: string } }).data.name;

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const signedUp = await page.request.post('/v1/signup', {
    data: { ...person, mobile: { country: 'US', number: '415 555 0177' }, tac: true, communication: true },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  // Verified, the invitation becomes a membership.
  const verified = await page.request.get(await mailLink(page, person.email, /https?:\/\/\S+\/v1\/verify\?token=[\w-]+/), { maxRedirects: 0 });
  expect(verified.status()).toBe(303);
  expect(verified.headers().location).toBe('/verified');
  await page.goto('/');
  await submitSignIn(page, person);
  // Their one account is chosen for them: no chooser.
  await expect(page.getByTestId('account-name')).toHaveText(accountName);
  return { page, close: () => context.close() };
}

/** The side menu's unread badge as shown (the desktop drawer; the mobile one is hidden). */
export const unreadBadge = (page: Page): Locator => page.getByTestId('unread-badge').filter({ visible: true });

export const conversationGrid = (page: Page): Locator => page.getByRole('grid', { name: 'Conversations' });

/** The conversation list's row of one contact. */
export const conversationRow = (page: Page, contact: string): Locator =>
  conversationGrid(page).getByRole('row').filter({ hasText: contact });

/** Whether an <img> has loaded real pixels (a broken or pending one has no natural width). */
export const imageLoaded = (image: Locator): Promise<boolean> =>
  image.evaluate((element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0);
