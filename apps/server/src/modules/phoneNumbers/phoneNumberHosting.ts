import { v7 as uuidv7 } from 'uuid';
import { PHONE_NUMBER_ALREADY_OURS_MESSAGE, type HostedPhoneNumbers } from '@parley/shared';
import type { CarrierRegistry } from '../carriers/index.js';
import type { Db } from '../../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { publishEvents } from '../../platform/events/outbox.js';
import { AppError } from '../../platform/errors.js';
import { accountHolds } from './queries.js';
import { presentPhoneNumber } from './phoneNumberPresenter.js';
import { lockAccount } from '../../platform/db/accountLock.js';
import { accountThatMayAddNumbers, defaultCarrierRef, rateFor, typeOfNumber } from './phoneNumberCarrier.js';

/** The letter of authorisation as kept with each number it covers. */
interface StoredLoa extends Omit<HostedPhoneNumbers, 'numbers'> {
  numbers: string[];
  submittedAt: string;
  /** The user who sent it; null for an API client. */
  submittedBy: string | null;
}

/**
 * Adds the business's own numbers from the letter of authorisation: one unverified, hosted row per number
 * on the default carrier, each keeping the letter. They send once a verification call proves the number
 * (a number active in another account is refused then, not here: the letter may be how it moves over).
 */
export async function addHostedNumbers(
  db: Db,
  carriers: CarrierRegistry,
  input: { accountId: string; submittedBy: string | null; form: HostedPhoneNumbers },
): Promise<PhoneNumberRow[]> {
  const { accountId, form } = input;
  await accountThatMayAddNumbers(db, accountId);
  const ref = defaultCarrierRef(carriers);
  // The connection's stated rate when the carrier is at hand; hosting itself needs no carrier call.
  const carrier = await carriers.forNumber(ref).catch(() => null);
  const messagesPerSecond = await rateFor(db, ref.carrier, carrier?.capabilities ?? null);
  const loa: StoredLoa = {
    ...form,
    numbers: form.numbers.map((n) => n.number),
    submittedAt: new Date().toISOString(),
    submittedBy: input.submittedBy,
  };
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const held = await accountHolds(tx, accountId, loa.numbers);
    if (held.length > 0) throw new AppError(409, 'conflict', `${held.join(', ')}: ${PHONE_NUMBER_ALREADY_OURS_MESSAGE}`);
    const rows = await tx
      .insert(phoneNumbers)
      .values(
        form.numbers.map(({ number, country }) => ({
          id: uuidv7(),
          accountId,
          number,
          name: '',
          country,
          type: typeOfNumber(number),
          carrier: ref.carrier,
          carrierSettingsId: ref.carrierSettingsId,
          status: 'unverified' as const,
          hosted: true,
          supportedDestinations: [country],
          messagesPerSecond,
          loa,
        })),
      )
      .returning();
    // In the order of the form, as the answer lists them.
    const ordered = loa.numbers.map((n) => rows.find((r) => r.number === n)).filter((r): r is PhoneNumberRow => r !== undefined);
    await publishEvents(
      tx,
      ordered.map((row) => ({ type: 'phoneNumberAdded', accountId, data: { phoneNumber: presentPhoneNumber(row) } })),
    );
    return ordered;
  });
}
