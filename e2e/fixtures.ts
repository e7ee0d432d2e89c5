import { test as base, expect, type Page } from '@playwright/test';

/** Chromium reports what the Content-Security-Policy blocked as console errors: "Refused to ...". */
const CSP_VIOLATION = /Content Security Policy|Refused to (load|execute|apply|connect|frame|run|evaluate|create|send)/;

/** Collects the Content-Security-Policy violations a page reports. */
export function cspViolationsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && CSP_VIOLATION.test(message.text())) seen.push(message.text());
  });
  return seen;
}

/** The address of the server that globalSetup started (E2E_BASE_URL), for a URL a test compares with. */
export function e2eBaseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: the global setup did not run');
  return url;
}

/**
 * Tests take the address of the server that globalSetup started. Every test's page fails the test when
 * the Content-Security-Policy refused something on it: the app, the sign-in pages and /docs must work
 * under the policy, not around it.
 */
export const test = base.extend<{ cspViolations: string[] }>({
  // Playwright reads fixture dependencies from the destructured first argument; this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(e2eBaseUrl());
  },
  cspViolations: [
    async ({ page }, use) => {
      const seen = cspViolationsOf(page);
      await use(seen);
      expect(seen, 'Content-Security-Policy violations on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
