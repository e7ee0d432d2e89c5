import { test as base } from '@playwright/test';

/** Tests take the address of the server that globalSetup started. */
export const test = base.extend({
  // Playwright reads fixture dependencies from the destructured first argument; this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: the global setup did not run');
    await use(url);
  },
});

export { expect } from '@playwright/test';
