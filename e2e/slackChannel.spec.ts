import type { APIRequestContext } from '@playwright/test';
import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { shownInUs } from './phoneText.js';

/*
 * A user's Slack channel, end to end, against the local Slack the global setup runs (the server's test peer,
 * apps/server/src/modules/notifications/channels/test/slackPeer.ts; the server is configured with its
 * SLACK_* settings): "Add to Slack" goes to the peer's OAuth page and back, the user picks a channel, a
 * customer texts the account from the simulator, the peer gets the post, and a reply in the post's thread
 * (a signed Events API request from the peer) reaches the customer's virtual phone.
 */

interface PeerPost {
  channel: string;
  text: string;
  ts: string;
}

const peerUrl = (): string => {
  const url = process.env.E2E_SLACK_PEER_URL;
  if (url === undefined) throw new Error('E2E_SLACK_PEER_URL is not set: the global setup did not run');
  return url;
};

async function peerPosts(request: APIRequestContext): Promise<PeerPost[]> {
  const answer = await request.get(`${peerUrl()}/peer/posts`);
  return ((await answer.json()) as { posts: PeerPost[] }).posts;
}

test('a user connects Slack, a customer texts, the post reaches the channel and the thread reply reaches the phone', async ({ page }) => {
  // Waits, not limits on speed: 90 s at a load of 20 on two cores (the other notification tests allow as much).
  test.setTimeout(120_000);
  await signInToFreshAccount(page, 'Slack Desk');
  const mobile = `+1415555${String(3000 + Math.floor(Math.random() * 6000))}`;
  const question = `Is the blue kettle back in stock? ${String(Date.now())}`;

  await page.goto('/notifications/slack');
  await page.getByRole('button', { name: 'Add to Slack' }).click();
  // Slack's consent page (the peer's), then back through Parley's callback.
  await expect(page.getByRole('heading', { name: /Acme Support Slack workspace/ })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'chat:write' })).toBeVisible();
  await page.getByRole('link', { name: 'Allow' }).click();
  await expect(page).toHaveURL(/\/notifications\/slack\?connected=1$/);
  await expect(page.getByText('Connected: Acme Support')).toBeVisible();

  await page.getByRole('combobox', { name: 'Slack channel' }).click();
  await page.getByRole('option', { name: '#support' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Properties have been saved')).toBeVisible();
  await expect(page.getByText('Connected: Acme Support #support')).toBeVisible();

  const simulator = await page.context().newPage();
  await simulator.goto('/simulator');
  const newPhone = simulator.locator('form').filter({ has: simulator.getByRole('textbox', { name: 'Phone number' }) });
  await newPhone.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
  await newPhone.getByRole('textbox', { name: /^Message/ }).fill(question);
  await newPhone.getByRole('button', { name: 'Send' }).click();
  const phone = simulator.getByRole('region', { name: shownInUs(mobile) });
  await expect(phone.getByText(question)).toBeVisible();

  let post: PeerPost | undefined;
  await expect
    .poll(async () => (post = (await peerPosts(page.request)).find((p) => p.text.includes(question))), { message: 'the post in Slack', timeout: 20_000 })
    .toBeDefined();
  expect(post?.channel).toBe('C0SUPPORT');
  // The contact is new: it is named by its number.
  expect(post?.text).toBe(`New message from ${shownInUs(mobile)} (${mobile}): ${question}`);

  const reply = 'Yes, it came in this morning: we keep one for you until Friday.';
  const sent = await page.request.post(`${peerUrl()}/peer/reply`, { data: { channel: post?.channel, ts: post?.ts, text: reply } });
  expect(await sent.json()).toEqual({ status: 200, body: JSON.stringify({ ok: true }) });
  await expect(phone.getByText(reply)).toBeVisible({ timeout: 20_000 });
});
