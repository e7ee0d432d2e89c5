import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';

export interface MailboxMessage {
  to: string;
  subject: string;
  text: string;
}

/** The local mailbox's messages to one address, newest first (embedded mode's /dev/mailbox.json). */
export async function mailsTo(page: Page, to: string): Promise<MailboxMessage[]> {
  const answer = await page.request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: MailboxMessage[] }).data;
}

/** Opens Account Settings from the top bar (administrators only). */
export async function openSettings(page: Page) {
  await page.getByRole('button', { name: /^Account settings/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}
