import { describe, expect, it } from 'vitest';
import type { Account } from '@parley/shared';
import { testDatabaseKinds } from '../../test/databases.js';
import { createUser } from '../../test/factories.js';
import { accountMembers } from '../../platform/db/schema/index.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { deliverSandboxEvents } from './payments/sandbox/delivery.js';
import { seedPlans } from './plans.js';
import { addSandboxCard } from './test/sandboxCards.js';

describe.each(testDatabaseKinds)("the account record's billing fields on %s", (kind) => {
  const { h, ownAccount } = useRouteHarness(kind, { seed: seedPlans });

  it('shows the card, the subscription with activeUntil and the auto top-up rule once the provider confirms them', async () => {
    const { account, token } = await ownAccount();
    const read = async (who = token) => (await h.call('GET', `/v1/accounts/${account.id}`, who)).json<{ data: Account }>().data;
    expect(await read()).toMatchObject({ paymentSource: null, subscription: null, options: { autotopup: null } });

    await addSandboxCard(h, account.id, token);
    const rule = await h.call('PUT', `/v1/accounts/${account.id}/autotopup`, token, { below: 10, amount: 20 });
    expect(rule.statusCode, rule.body).toBe(200);
    const change = await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, { id: 'starter', segmentUnderstanding: new Date().toISOString() });
    expect(change.statusCode, change.body).toBe(200);
    await deliverSandboxEvents(h.database.db);

    const billed = await read();
    expect(billed).toMatchObject({
      plan: { id: 'starter' },
      paymentSource: { brand: 'visa', last4: '4242', expiry: { month: 12, year: 2031 } },
      subscription: { planId: 'starter', status: 'active' },
      options: { autotopup: { below: '10.0000', amount: '20.0000', stopped: false } },
    });
    const activeUntil = Date.parse(billed.subscription?.activeUntil ?? '');
    // A monthly plan is paid until about a month from now.
    expect(activeUntil - Date.now()).toBeGreaterThan(27 * 24 * 60 * 60 * 1000);
    expect(activeUntil - Date.now()).toBeLessThan(32 * 24 * 60 * 60 * 1000);

    // A member who may not see billing reads the account without them.
    const sender = await createUser(h.database.db);
    await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: sender.id, role: 'Sender' });
    const seen = await read(h.tokenFor(sender.id));
    expect(seen).toMatchObject({ id: account.id, plan: { id: 'starter' }, user: { role: 'Sender' } });
    expect(seen).not.toHaveProperty('paymentSource');
    expect(seen).not.toHaveProperty('subscription');
    expect(seen.options).not.toHaveProperty('autotopup');
  });
});
