import { describe, expect, it } from 'vitest';
import type { Account, CreateAccountInput, PhoneNumber } from '@parley/shared';
import { seedPlans } from '../../billing/plans.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { useRouteHarness, type RouteHarness } from '../../../test/routeHarness.js';

const form = (country: string): CreateAccountInput => ({
  name: 'Acme Dental',
  defaults: { country },
  support: { address: '1 Main St, Springfield', phone: '+1 415 555 2671', email: 'front@acme.example' },
  questionnaire: { messagingVolume: '1-1,000', messagingType: ['one to one'], desiredIntegrations: [] },
});

async function openAccount({ h }: RouteHarness, country: string): Promise<{ account: Account; numbers: PhoneNumber[] }> {
  const user = await createUser(h.database.db);
  const token = h.tokenFor(user.id);
  const created = await h.call('POST', '/v1/accounts', token, form(country));
  expect(created.statusCode, created.body).toBe(201);
  const account = created.json<{ data: Account }>().data;
  const listed = await h.call('GET', `/v1/accounts/${account.id}/phonenumbers`, token);
  expect(listed.statusCode).toBe(200);
  return { account, numbers: listed.json<{ data: PhoneNumber[] }>().data };
}

describe.each(testDatabaseKinds)('the first number of an account opened through the API on %s', (kind) => {
  describe('in embedded mode with the simulator', () => {
    const harness = useRouteHarness(kind, { seed: seedPlans });

    it('gives the new (trial) account one active simulator number of its country at once', async () => {
      const { account, numbers } = await openAccount(harness, 'US');
      expect(account.plan.isTrial).toBe(true);
      expect(numbers).toEqual([
        expect.objectContaining({ status: 'active', verified: true, hosted: false, carrier: 'simulator', country: 'US' }),
      ]);
      const gb = await openAccount(harness, 'GB');
      expect(gb.numbers).toEqual([expect.objectContaining({ status: 'active', country: 'GB' })]);
      expect(gb.numbers[0]?.number).not.toBe(numbers[0]?.number);
    });
  });

  describe('in PostgreSQL mode', () => {
    const harness = useRouteHarness(kind, { seed: seedPlans, env: { DATABASE_URL: 'postgres://parley@db.example/parley' } });

    it('opens the account without a number: numbers are bought deliberately', async () => {
      const { numbers } = await openAccount(harness, 'US');
      expect(numbers).toEqual([]);
    });
  });
});
