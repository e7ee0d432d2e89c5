import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOW_BALANCE_WARNING, MONEY_PATTERN, moneyToUnits, planPricingSchema } from '@parley/shared';
import { ConfigError } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { plans } from '../../platform/db/schema/index.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { planCatalog, seedPlans, TRIAL_PLAN_ID } from './plans.js';

describe('the plan catalog', () => {
  it('has one unlisted 15-day trial at no charge and paid plans priced in exact decimals', () => {
    const trials = planCatalog.filter((p) => p.isTrial);
    expect(trials.map((p) => [p.id, p.price, p.listed])).toEqual([[TRIAL_PLAN_ID, '0.0000', false]]);
    for (const plan of planCatalog) {
      expect(plan.price, plan.id).toMatch(MONEY_PATTERN);
      const pricing = planPricingSchema.parse(plan.pricing);
      expect(Object.keys(pricing).sort()).toEqual(['AU', 'CA', 'DEFAULT', 'GB', 'US']);
    }
    expect(planCatalog.filter((p) => !p.isTrial).map((p) => p.price)).toEqual(['29.0000', '99.0000', '299.0000']);
  });

  it('reads TRIAL_CREDIT as an exact amount with 4 decimals', () => {
    expect(testConfig().billing.trialCredit).toBe('10.0000');
    expect(testConfig({ TRIAL_CREDIT: '12.5' }).billing.trialCredit).toBe('12.5000');
    expect(testConfig({ TRIAL_CREDIT: '0' }).billing.trialCredit).toBe('0.0000');
    for (const bad of ['1.23456', '-1', 'five', '1e3']) {
      expect(() => testConfig({ TRIAL_CREDIT: bad }), bad).toThrow(ConfigError);
    }
  });

  it('credits a new trial clearly more than the low-balance warning, so its first texts do not warn', () => {
    const credit = moneyToUnits(testConfig().billing.trialCredit);
    expect(credit).toBeGreaterThanOrEqual(2n * moneyToUnits(String(LOW_BALANCE_WARNING)));
  });
});

describe.each(testDatabaseKinds)('seeding plans on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const stored = () => database.db.select().from(plans).orderBy(asc(plans.id));

  it('writes the catalog, is idempotent, and puts back a plan changed in the database', async () => {
    await seedPlans(database.db);
    const first = await stored();
    expect(first.map((p) => p.id)).toEqual(['growth', 'scale', 'starter', 'trial']);
    expect(first.find((p) => p.id === 'starter')).toMatchObject({ name: 'Starter', price: '29.0000', isTrial: false });
    await seedPlans(database.db);
    await Promise.all([seedPlans(database.db), seedPlans(database.db)]);
    expect(await stored()).toEqual(first);

    await database.db.update(plans).set({ price: '1.0000', name: 'Changed' }).where(eq(plans.id, 'growth'));
    await seedPlans(database.db);
    expect(await stored()).toEqual(first);
  });
});
