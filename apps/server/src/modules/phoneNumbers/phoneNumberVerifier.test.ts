import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_CALL_UNSUPPORTED_MESSAGE } from '@parley/shared';
import type { Carrier } from '../carriers/carrier.js';
import { createCarrierRegistry } from '../carriers/registry.js';
import type { Database } from '../../platform/db/client.js';
import { phoneNumbers } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { createPhoneNumber } from '../../test/phoneNumbers.js';
import { requestVerificationCall } from './phoneNumberVerifier.js';

/** A carrier with voice or without: the verifier must tell them apart and survive a call that fails. */
function carrier(placeVerificationCall?: Carrier['placeVerificationCall']): Carrier {
  return {
    name: 'twilio',
    capabilities: { sms: true, mms: true, numberInventory: true, maxSubmitsPerSecond: null, idempotentSubmit: false },
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    send: () => Promise.reject(new Error('not here')),
    availableNumbers: () => Promise.resolve([]),
    buyNumber: () => Promise.reject(new Error('not here')),
    ...(placeVerificationCall === undefined ? {} : { placeVerificationCall }),
  };
}

describe.each(testDatabaseKinds)('verification calls on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const unverified = async () => {
    const account = await createAccount(database.db);
    const row = await createPhoneNumber(database.db, account.id, { carrier: 'twilio', status: 'unverified', hosted: true, verifiedAt: null });
    return { accountId: account.id, row };
  };
  const stored = async (id: string) => (await database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id)))[0];

  it('refuses (422) a number whose carrier has no voice, and keeps no code', async () => {
    const { accountId, row } = await unverified();
    const registry = createCarrierRegistry('twilio', { deployment: { twilio: () => carrier() } });
    await expect(requestVerificationCall(database.db, registry, accountId, row.id)).rejects.toMatchObject({
      statusCode: 422,
      message: VERIFICATION_CALL_UNSUPPORTED_MESSAGE,
    });
    expect(await stored(row.id)).toMatchObject({ verificationCodeHash: null, verificationRequestedAt: null });
    await registry.stop();
  });

  it('answers 502 when the carrier fails to place the call, and gives the minute back', async () => {
    const { accountId, row } = await unverified();
    const failing = createCarrierRegistry('twilio', {
      deployment: { twilio: () => carrier(() => Promise.reject(new Error('connection refused'))) },
    });
    await expect(requestVerificationCall(database.db, failing, accountId, row.id)).rejects.toMatchObject({
      statusCode: 502,
      message: 'The verification call could not be placed. Try again later.',
    });
    expect(await stored(row.id)).toMatchObject({ verificationCodeHash: null, verificationExpiresAt: null, verificationRequestedAt: null });

    const heard: string[] = [];
    const working = createCarrierRegistry('twilio', {
      deployment: {
        twilio: () =>
          carrier((call) => {
            heard.push(`${call.to} ${call.code}`);
            return Promise.resolve();
          }),
      },
    });
    const placed = await requestVerificationCall(database.db, working, accountId, row.id);
    expect(placed.row.id).toBe(row.id);
    expect(heard).toEqual([expect.stringMatching(new RegExp(`^\\${row.number} \\d{6}$`)) as string]);
    await failing.stop();
    await working.stop();
  });
});
