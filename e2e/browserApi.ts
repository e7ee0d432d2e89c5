import { randomUUID } from 'node:crypto';
import type { APIResponse, Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { keptSignIn, seedStorage, signIn } from './signIn.js';

/** The API as the signed-in browser calls it: its bearer header and an account id. */
export interface BrowserApi {
  page: Page;
  headers: Record<string, string>;
  accountId: string;
}

/** The signed-in browser's access token (the app keeps its user in localStorage). */
export async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (const key of Object.keys(window.localStorage)) {
      if (!key.startsWith('oidc.user:')) continue;
      const user = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { access_token?: string };
      if (user.access_token) return user.access_token;
    }
    return null;
  });
  expect(token, 'an access token in localStorage').not.toBeNull();
  return token ?? '';
}

export const bearerOf = async (page: Page): Promise<Record<string, string>> => ({
  authorization: `Bearer ${await accessTokenOf(page)}`,
});

/** Creates an account of the user with these headers, with what a new account is asked for; answers its id. */
async function createAccount(page: Page, headers: Record<string, string>, namePrefix: string): Promise<string> {
  const answer = await page.request.post('/v1/accounts', {
    headers,
    data: {
      name: `${namePrefix} ${randomUUID().slice(0, 6)}`,
      defaults: { country: 'US' },
      support: { address: '1 Main St', phone: '+14155552671', email: 'support@example.test' },
      questionnaire: { messagingVolume: '1-1,000', messagingType: ['one to one'] },
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { data: { id: string } }).data.id;
}

/**
 * A new account of the signed-in user, chosen in the browser (the next page load opens it): a test that
 * needs an empty account gets one, whatever other specs put in the shared one.
 */
export async function freshAccount(page: Page, namePrefix: string): Promise<BrowserApi> {
  const headers = await bearerOf(page);
  const accountId = await createAccount(page, headers, namePrefix);
  await page.evaluate((id) => {
    window.localStorage.setItem('parley.account', id);
  }, accountId);
  return { page, headers, accountId };
}

/**
 * The shared user signed in, in a new account of its own (freshAccount) that the page's next load opens; the
 * test then goes to its first page. Once the shared user has signed in during the run, the account is made
 * with the kept tokens and put in the browser's storage before that first load, so the page is loaded once
 * instead of twice (the sign-in's page, then the test's). Until then it signs in through the pages at `path`.
 */
export async function signInToFreshAccount(page: Page, namePrefix: string, path = '/'): Promise<BrowserApi> {
  const kept = keptSignIn();
  const token = kept?.map(([, value]) => (JSON.parse(value) as { access_token?: string }).access_token).find((t) => t !== undefined);
  if (kept === null || token === undefined) {
    await signIn(page, path);
    return freshAccount(page, namePrefix);
  }
  const headers = { authorization: `Bearer ${token}` };
  const accountId = await createAccount(page, headers, namePrefix);
  await seedStorage(page, [...kept, ['parley.account', accountId]]);
  return { page, headers, accountId };
}

/** The id of the record a create made: a contact or a template is answered in a list of one (`{ success, data: [record] }`). */
export async function createdId(answer: APIResponse): Promise<string> {
  const { data } = (await answer.json()) as { data: { id: string }[] };
  expect(data).toHaveLength(1);
  return data[0]?.id ?? '';
}
