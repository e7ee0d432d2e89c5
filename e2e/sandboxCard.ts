import { randomUUID } from 'node:crypto';
import type { BrowserApi } from './browserApi.js';
import { expect } from './fixtures.js';

/** The sandbox's test Visa that always succeeds (docs/billing.md, Payment providers). */
export const SANDBOX_VISA = '4242 4242 4242 4242';
/** The sandbox's test card whose bank asks the card holder to authenticate every payment (3-D Secure). */
export const SANDBOX_AUTHENTICATION_CARD = '4000 0027 6000 3184';

/** The ledger's description of a top-up the provider confirmed (docs/billing.md, One path for provider events). */
export const TOPUP_CREDIT_DESCRIPTION = 'Top-up';

/** Money in ten-thousandths of a dollar, by string operations: no float decides an expected balance. */
export const units = (money: string): bigint => {
  const [whole = '0', fraction = ''] = money.split('.');
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0'));
};
export const money = (value: bigint): string => `${value / 10_000n}.${(value % 10_000n).toString().padStart(4, '0')}`;

export async function balanceOf(api: BrowserApi): Promise<string> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: { balance: string } }).data.balance;
}

/**
 * Puts a sandbox test card (the Visa unless told) on file, as the card form would: the sandbox makes a token
 * of the card, the account saves it (the card holder approving the sandbox's authentication when the card
 * asks for it), and the card shows once the sandbox's event is applied, moments later.
 */
export async function putSandboxCardOnFile(api: BrowserApi, number = SANDBOX_VISA): Promise<void> {
  const expYear = new Date().getUTCFullYear() + 3;
  const tokenized = await api.page.request.post('/v1/billing/sandbox/cards', {
    headers: api.headers,
    data: { number, expMonth: 12, expYear, cvc: '123' },
  });
  expect(tokenized.status(), await tokenized.text()).toBe(200);
  const { tokenId } = ((await tokenized.json()) as { data: { tokenId: string } }).data;
  const saved = await api.page.request.put(`/v1/accounts/${api.accountId}/paymentsource`, { headers: api.headers, data: { tokenId } });
  expect(saved.status(), await saved.text()).toBe(200);
  const setup = ((await saved.json()) as { data: { status: string; clientSecret: string | null } }).data;
  if (setup.status === 'requiresAction') {
    const approved = await api.page.request.post('/v1/billing/sandbox/authenticate', {
      headers: api.headers,
      data: { clientSecret: setup.clientSecret, approve: true },
    });
    expect(approved.status(), await approved.text()).toBe(204);
  }
  await expect
    .poll(async () => {
      const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/paymentsource`, { headers: api.headers });
      expect(answer.status(), await answer.text()).toBe(200);
      return ((await answer.json()) as { data: { paymentSource: unknown } }).data.paymentSource;
    })
    .toEqual({ brand: 'visa', last4: number.slice(-4), expiry: { month: 12, year: expYear } });
}

/**
 * Tops the balance up through the API with the card on file and waits until the sandbox's event moved it.
 * The answer is the payment as it stands: processing, or already succeeded when the event was applied before
 * the answer was written. Answers the new balance.
 */
export async function topUpWithSandboxCard(api: BrowserApi, amount: string): Promise<string> {
  const before = await balanceOf(api);
  const answer = await api.page.request.post(`/v1/accounts/${api.accountId}/topup`, {
    headers: { ...api.headers, 'idempotency-key': randomUUID() },
    data: { amount },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const { payment, duplicate } = ((await answer.json()) as { data: { payment: { status: string; amount: string }; duplicate: boolean } }).data;
  expect(duplicate).toBe(false);
  expect(payment.amount).toBe(money(units(amount)));
  expect(['processing', 'succeeded']).toContain(payment.status);
  const after = money(units(before) + units(amount));
  await expect.poll(() => balanceOf(api)).toBe(after);
  return after;
}
