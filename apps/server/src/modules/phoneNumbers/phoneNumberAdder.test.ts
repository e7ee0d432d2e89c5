import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_NUMBER_ALREADY_OURS_MESSAGE, PHONE_NUMBER_TAKEN_MESSAGE, addConnectionPhoneNumberSchema } from '@parley/shared';
import type { CarrierName } from '../carriers/carrier.js';
import type { Database } from '../../platform/db/client.js';
import { carrierSettings, phoneNumbers } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { closeAccount, createAccount, ensureTestPlan } from '../../test/factories.js';
import { createPhoneNumber, uniqueTestNumber } from '../../test/phoneNumbers.js';
import { addConnectionNumber, type ConnectionNumberInput } from './phoneNumberAdder.js';

const smppDeployment: readonly CarrierName[] = ['smpp'];
const operator = { kind: 'operator' } as const;

describe.each(testDatabaseKinds)('adding a number of an SMPP connection on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const input = (accountId: string, number: string, rest: Partial<ConnectionNumberInput> = {}): ConnectionNumberInput =>
    ({
      accountId,
      number: addConnectionPhoneNumberSchema.parse({ number }),
      configured: smppDeployment,
      carrierSettingsId: null,
      voucher: operator,
      ...rest,
    }) as ConnectionNumberInput;

  async function connectionOf(accountId: string): Promise<string> {
    const id = randomUUID();
    const settings = { host: 'smsc.example.test', port: 2775, systemId: 'acme', tls: false };
    await database.db.insert(carrierSettings).values({ id, accountId, carrier: 'smpp', name: 'SMSC', settings, secret: 'v1.00000000.AAAA' });
    return id;
  }

  it("lets the operator add the deployment's SMPP numbers to any open account, trial plans included", async () => {
    const trial = await createAccount(database.db, {}, { planId: await ensureTestPlan(database.db, 'test-trial', true) });
    const number = uniqueTestNumber();
    const row = await addConnectionNumber(database.db, input(trial.id, number));
    expect(row).toMatchObject({ accountId: trial.id, number, carrier: 'smpp', carrierSettingsId: null, status: 'active', country: 'US', messagesPerSecond: 1 });
    // On the account's own connection too; a member of a trial account could not.
    const own = await connectionOf(trial.id);
    const second = await addConnectionNumber(database.db, input(trial.id, uniqueTestNumber(), { carrierSettingsId: own }));
    expect(second.carrierSettingsId).toBe(own);
    await expect(
      addConnectionNumber(database.db, input(trial.id, uniqueTestNumber(), { carrierSettingsId: own, voucher: { kind: 'member', userId: null, clientId: 'pk_x' } })),
    ).rejects.toMatchObject({ statusCode: 403 });
  });

  it("refuses a closed or unknown account, another account's connection, a deployment without SMPP and held numbers", async () => {
    const account = await createAccount(database.db);
    const closed = await createAccount(database.db);
    await closeAccount(database.db, closed.id);
    const theirs = await connectionOf((await createAccount(database.db)).id);
    const held = await createPhoneNumber(database.db, account.id);
    const elsewhere = await createPhoneNumber(database.db, (await createAccount(database.db)).id);
    const cases: [ConnectionNumberInput, number, string][] = [
      [input(closed.id, uniqueTestNumber()), 404, 'The account was not found.'],
      [input(randomUUID(), uniqueTestNumber()), 404, 'The account was not found.'],
      [input(account.id, uniqueTestNumber(), { carrierSettingsId: theirs }), 404, 'The carrier connection was not found.'],
      [input(account.id, uniqueTestNumber(), { configured: ['simulator'] }), 422, "The smpp carrier is not configured for this deployment: set SMPP_URL, or name one of the account's own SMPP connections."],
      [input(account.id, held.number), 409, PHONE_NUMBER_ALREADY_OURS_MESSAGE],
      [input(account.id, elsewhere.number), 409, PHONE_NUMBER_TAKEN_MESSAGE],
    ];
    for (const [given, statusCode, message] of cases) {
      await expect(addConnectionNumber(database.db, given)).rejects.toMatchObject({ statusCode, message });
    }
    expect(await database.db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(eq(phoneNumbers.accountId, account.id))).toEqual([{ id: held.id }]);
  });

  it('gives one of two adds racing for a number the number, and the other 409', async () => {
    const [a, b] = [await createAccount(database.db), await createAccount(database.db)];
    const number = uniqueTestNumber();
    const results = await Promise.allSettled([addConnectionNumber(database.db, input(a.id, number)), addConnectionNumber(database.db, input(b.id, number))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.reason as { statusCode: number })).toEqual([
      expect.objectContaining({ statusCode: 409 }),
    ]);
    expect(await database.db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(eq(phoneNumbers.number, number))).toHaveLength(1);
  });
});
