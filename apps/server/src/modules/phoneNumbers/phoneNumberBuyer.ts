import { v7 as uuidv7 } from 'uuid';
import {
  AVAILABLE_NUMBERS_MAX_LIMIT,
  PHONE_NUMBER_ALREADY_OURS_MESSAGE,
  PHONE_NUMBER_NOT_FOR_SALE_MESSAGE,
  PHONE_NUMBER_TAKEN_MESSAGE,
  checkE164,
  type AvailableNumber,
  type BuyPhoneNumber,
} from '@parley/shared';
import type { CarrierRegistry } from '../carriers/index.js';
import type { Db, Queryable } from '../../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError } from '../../platform/errors.js';
import { activeHolder, accountHolds } from './queries.js';
import { presentPhoneNumber } from './phoneNumberPresenter.js';
import {
  accountThatMayAddNumbers,
  carrierCall,
  defaultCarrierRef,
  openCarrier,
  rateFor,
  typeOfNumber,
} from './phoneNumberCarrier.js';

const NOT_AVAILABLE = 'Phone numbers cannot be bought';
const CARRIER_FAILED = 'The carrier did not answer. Try again later.';

/** The default carrier's numbers for sale in a country. */
export async function availableNumbers(
  carriers: CarrierRegistry,
  query: { country: string; limit: number },
): Promise<AvailableNumber[]> {
  const carrier = await openCarrier(carriers, defaultCarrierRef(carriers), NOT_AVAILABLE);
  const offer = await carrierCall(() => carrier.availableNumbers(query), CARRIER_FAILED);
  return offer.slice(0, query.limit).map((n) => ({ number: n.number, country: n.country, capabilities: n.capabilities }));
}

/** 409 when the number is held: active in another account, or already a number of this one. */
export async function refuseHeldNumber(q: Queryable, accountId: string, number: string): Promise<void> {
  if ((await accountHolds(q, accountId, [number])).length > 0) throw new AppError(409, 'conflict', PHONE_NUMBER_ALREADY_OURS_MESSAGE);
  if ((await activeHolder(q, number)) !== null) throw new AppError(409, 'conflict', PHONE_NUMBER_TAKEN_MESSAGE);
}

/**
 * Buys a number of the default carrier's inventory for the account: active and verified at once. The
 * carrier is asked outside any transaction (the simulator reads the database itself, and PGlite has one
 * connection); the row is written after, and the active-number index settles a race with another buyer.
 * Numbers are not charged here (docs: pricing of numbers is the plan's business, not yet billed).
 */
export async function buyPhoneNumber(
  db: Db,
  carriers: CarrierRegistry,
  accountId: string,
  input: BuyPhoneNumber,
): Promise<PhoneNumberRow> {
  await accountThatMayAddNumbers(db, accountId);
  const number = input.number;
  await refuseHeldNumber(db, accountId, number);
  const ref = defaultCarrierRef(carriers);
  const carrier = await openCarrier(carriers, ref, NOT_AVAILABLE);
  const parsed = checkE164(number);
  const country = parsed.ok ? parsed.country : '';
  const offer = await carrierCall(() => carrier.availableNumbers({ country, limit: AVAILABLE_NUMBERS_MAX_LIMIT }), CARRIER_FAILED);
  const wanted = offer.find((n) => n.number === number);
  if (!wanted) throw new AppError(409, 'conflict', PHONE_NUMBER_NOT_FOR_SALE_MESSAGE);
  const messagesPerSecond = await rateFor(db, carrier.name, carrier.capabilities);
  const { carrierNumberId } = await carrierCall(() => carrier.buyNumber(number), CARRIER_FAILED);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(phoneNumbers)
      .values({
        id: uuidv7(),
        accountId,
        number,
        name: input.name ?? '',
        country: wanted.country,
        type: typeOfNumber(number),
        carrier: ref.carrier,
        carrierSettingsId: ref.carrierSettingsId,
        carrierNumberId,
        status: 'active',
        hosted: false,
        verifiedAt: new Date(),
        supportedDestinations: [wanted.country],
        messagesPerSecond,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) return null;
    await publishEvent(tx, { type: 'phoneNumberAdded', accountId, data: { phoneNumber: presentPhoneNumber(inserted) } });
    return inserted;
  });
  if (row === null) throw new AppError(409, 'conflict', PHONE_NUMBER_TAKEN_MESSAGE);
  return row;
}
