import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPlans } from '../billing/plans.js';
import type { Carrier } from '../carriers/carrier.js';
import { buildCarrierRegistry } from '../carriers/deployment.js';
import { createCarrierRegistry, type CarrierRegistry } from '../carriers/registry.js';
import type { Database } from '../../platform/db/client.js';
import { phoneNumbers } from '../../platform/db/schema/index.js';
import { outboxEvents } from '../../test/accounts.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount, createUser } from '../../test/factories.js';
import { captureLogger, silentLogger } from '../../test/logger.js';
import { createPhoneNumber, uniqueTestNumber } from '../../test/phoneNumbers.js';
import { createAccountFor, type NewAccount } from '../accounts/accountCreator.js';
import { embeddedFirstNumbers, type FirstNumbers } from './phoneNumberFirst.js';

describe.each(testDatabaseKinds)('the first number of a new account on %s', (kind) => {
  let database: Database;
  let carriers: CarrierRegistry;
  const config = testConfig();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await seedPlans(database.db);
    carriers = buildCarrierRegistry(config, database, silentLogger());
  });
  afterAll(async () => {
    await carriers.stop();
    await database.close();
  });

  const newAccount = async (country: string): Promise<NewAccount> => ({
    ownerId: (await createUser(database.db)).id,
    name: 'Acme',
    country,
    support: {},
    questionnaire: { messagingType: [], desiredIntegrations: [] },
  });
  const numbersOf = (accountId: string) => database.db.select().from(phoneNumbers).where(eq(phoneNumbers.accountId, accountId));
  const firstNumbers = (registry: CarrierRegistry = carriers, log = silentLogger()): FirstNumbers => {
    const source = embeddedFirstNumbers({ config, carriers: registry, database, log });
    if (source === null) throw new Error('no first numbers in embedded mode');
    return source;
  };
  const offered = async (country: string): Promise<string[]> =>
    (await (await carriers.forNumber({ carrier: 'simulator', carrierSettingsId: null })).availableNumbers({ country, limit: 20 })).map(
      (n) => n.number,
    );

  it('gives a new account the first free simulator number of its country, active at once', async () => {
    const [expected] = await offered('GB');
    const account = await createAccountFor(database.db, await newAccount('GB'), '0', firstNumbers());
    const numbers = await numbersOf(account.id);
    expect(numbers).toEqual([
      expect.objectContaining({
        number: expected,
        country: 'GB',
        status: 'active',
        carrier: 'simulator',
        carrierSettingsId: null,
        carrierNumberId: `sim-${expected ?? ''}`,
        hosted: false,
        messagesPerSecond: 10,
      }),
    ]);
    expect(numbers[0]?.verifiedAt).toBeInstanceOf(Date);
    expect(await outboxEvents(database.db, 'phoneNumberAdded', account.id)).toEqual([
      { data: { phoneNumber: expect.objectContaining({ id: numbers[0]?.id, number: expected, status: 'active' }) as unknown } },
    ]);
    // The next account gets the next number.
    const [following] = await offered('GB');
    expect(following).not.toBe(expected);
    const next = await createAccountFor(database.db, await newAccount('GB'), '0', firstNumbers());
    expect((await numbersOf(next.id)).map((n) => n.number)).toEqual([following]);
  });

  it('falls back to a US number when the simulator has none in the account country', async () => {
    const account = await createAccountFor(database.db, await newAccount('NZ'), '0', firstNumbers());
    expect(await numbersOf(account.id)).toEqual([expect.objectContaining({ country: 'US', status: 'active' })]);
  });

  it('skips a candidate another account took after the inventory was read', async () => {
    const source = firstNumbers();
    const offer = await source.prepare('CA');
    const [taken, second] = await offered('CA');
    if (taken === undefined || second === undefined) throw new Error('no candidates');
    await createPhoneNumber(database.db, (await createAccount(database.db)).id, { number: taken, country: 'CA' });
    const account = await createAccountFor(database.db, await newAccount('CA'), '0', { prepare: () => Promise.resolve(offer) });
    expect((await numbersOf(account.id)).map((n) => n.number)).toEqual([second]);
  });

  it('still creates the account, with a warning, when every candidate was taken meanwhile', async () => {
    const { log, lines } = captureLogger('warn');
    const offer = await firstNumbers(carriers, log).prepare('AU');
    const other = await createAccount(database.db);
    for (const number of await offered('AU')) await createPhoneNumber(database.db, other.id, { number, country: 'AU' });
    const account = await createAccountFor(database.db, await newAccount('AU'), '0', { prepare: () => Promise.resolve(offer) });
    expect(account.id).toEqual(expect.any(String));
    expect(await numbersOf(account.id)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain('every candidate number was taken meanwhile; the account starts without a number');
  });

  it('still creates the account when the simulator cannot be asked, or the purchase fails (released again)', async () => {
    const spare = uniqueTestNumber();
    const broken: Carrier = {
      name: 'simulator',
      capabilities: { sms: true, mms: true, numberInventory: true, maxSubmitsPerSecond: 5, idempotentSubmit: true },
      start: () => Promise.resolve(),
      stop: () => Promise.resolve(),
      send: () => Promise.reject(new Error('not here')),
      availableNumbers: ({ country }) => Promise.resolve([{ number: spare, country, capabilities: { sms: true, mms: false } }]),
      buyNumber: () => Promise.reject(new Error('the inventory is closed')),
    };
    const refusing = createCarrierRegistry('simulator', { deployment: { simulator: () => broken } });
    const { log, lines } = captureLogger('warn');
    const bought = await createAccountFor(database.db, await newAccount('US'), '0', firstNumbers(refusing, log));
    expect(await numbersOf(bought.id)).toEqual([
      expect.objectContaining({ number: spare, status: 'released', messagesPerSecond: 5, carrierNumberId: null }),
    ]);
    expect(lines.map((l) => l.msg)).toContain('the first number could not be bought; released');

    const failing = createCarrierRegistry('simulator', {
      deployment: { simulator: () => ({ ...broken, availableNumbers: () => Promise.reject(new Error('down')) }) },
    });
    const unasked = await createAccountFor(database.db, await newAccount('US'), '0', firstNumbers(failing, log));
    expect(await numbersOf(unasked.id)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain('no first number for a new account: the simulator could not be asked');
    await refusing.stop();
    await failing.stop();
  });

  it('gives no first number in PostgreSQL mode or without the simulator', async () => {
    const log = silentLogger();
    const postgresMode = testConfig({ DATABASE_URL: 'postgres://parley@db.example/parley' });
    expect(embeddedFirstNumbers({ config: postgresMode, carriers, database, log })).toBeNull();
    const noSimulator = createCarrierRegistry('simulator', { deployment: {} });
    expect(embeddedFirstNumbers({ config, carriers: noSimulator, database, log })).toBeNull();
    // Without a source (the CLI, PostgreSQL mode) the account has no number.
    const account = await createAccountFor(database.db, await newAccount('US'), '0');
    expect(await numbersOf(account.id)).toEqual([]);
  });
});
