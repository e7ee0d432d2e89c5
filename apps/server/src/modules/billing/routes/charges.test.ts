import { describe, expect, it } from 'vitest';
import { roles, type Charge, type Pagination } from '@parley/shared';
import { addContact, sendingAccount } from '../../../test/sendingFixtures.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { deliverSandboxEvents } from '../payments/sandbox/delivery.js';
import { addSandboxCard } from '../test/sandboxCards.js';

describe.each(testDatabaseKinds)('charges on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  it('lists the ledger newest first, paged: credits, message debits and their running balance', async () => {
    const account = await sendingAccount(h.database.db, { balance: '2' });
    const token = h.tokenFor(account.adminId);
    const contact = await addContact(h.database.db, account.accountId);
    const url = `/v1/accounts/${account.accountId}`;
    expect((await h.call('POST', `${url}/messages`, token, { contacts: [contact.id], template: 'a'.repeat(200) })).statusCode).toBe(200);
    // A top-up is paid with the card on file and credited when the sandbox's event is applied (docs/billing.md).
    await addSandboxCard(h, account.accountId, token);
    expect((await h.call('POST', `${url}/topup`, token, { amount: 10 })).statusCode).toBe(200);
    await deliverSandboxEvents(h.database.db);

    const res = await h.call('GET', `${url}/charges`, token);
    expect(res.statusCode, res.body).toBe(200);
    const { data, pagination } = res.json<{ data: Charge[]; pagination: Pagination }>();
    expect(pagination).toEqual({ totalCount: 3, offset: 0, limit: 10 });
    expect(data.map((c) => [c.kind, c.amount, c.balanceAfter, c.description])).toEqual([
      ['credit', '10.0000', '11.9800', 'Top-up'],
      ['debit', '0.0200', '1.9800', `Message to ${contact.mobileNumber}`],
      ['credit', '2.0000', '2.0000', 'Test credit'],
    ]);
    expect(data[0]?.created.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const second = await h.call('GET', `${url}/charges?limit=1&offset=1`, token);
    expect(second.json<{ data: Charge[] }>().data.map((c) => c.kind)).toEqual(['debit']);
    expect((await h.call('GET', `${url}/charges?limit=0`, token)).statusCode).toBe(400);
  });

  it('is for administrators only, and never shows another account', async () => {
    for (const role of roles) {
      const res = await h.call('GET', `/v1/accounts/${fixtures.accountId}/charges`, tokens[role]);
      expect(res.statusCode, role).toBe(role === 'Administrator' ? 200 : 403);
    }
    const other = await sendingAccount(h.database.db);
    expect((await h.call('GET', `/v1/accounts/${other.accountId}/charges`, tokens.Administrator)).statusCode).toBe(404);
  });
});
