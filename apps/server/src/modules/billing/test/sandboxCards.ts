import { expect } from 'vitest';
import type { ApiHarness } from '../../../test/apiHarness.js';
import { deliverSandboxEvents } from '../payments/sandbox/delivery.js';

/** Saves a sandbox test card on the account through the card form and paymentsource, and confirms it. */
export async function addSandboxCard(h: ApiHarness, accountId: string, token: string, number = '4242 4242 4242 4242'): Promise<void> {
  const form = await h.call('POST', '/v1/billing/sandbox/cards', token, { number, expMonth: 12, expYear: 2031, cvc: '123' });
  expect(form.statusCode, form.body).toBe(200);
  const { tokenId } = form.json<{ data: { tokenId: string } }>().data;
  const saved = await h.call('POST', `/v1/accounts/${accountId}/paymentsource`, token, { tokenId });
  expect(saved.statusCode, saved.body).toBe(200);
  const setup = saved.json<{ data: { status: string; clientSecret: string | null } }>().data;
  // A card that asks for authentication (4000 0027 6000 3184) is approved on the sandbox's page, as its holder would.
  if (setup.status === 'requiresAction') {
    const approved = await h.call('POST', '/v1/billing/sandbox/authenticate', token, { clientSecret: setup.clientSecret ?? '', approve: true });
    expect(approved.statusCode, approved.body).toBe(204);
  }
  await deliverSandboxEvents(h.database.db);
}
