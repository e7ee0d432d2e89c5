import { v7 as uuidv7 } from 'uuid';
import { PHONE_NUMBER_TAKEN_MESSAGE } from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError } from '../../platform/errors.js';
import { presentPhoneNumber } from './phoneNumberPresenter.js';
import { typeOfNumber } from './phoneNumberCarrier.js';

/** A number of one of the account's own carrier connections, its E.164 and country already checked. */
export interface ConnectionNumberRow {
  accountId: string;
  e164: string;
  country: string;
  name: string;
  carrier: 'smpp' | 'twilio';
  /** Null: the deployment's own connection of the carrier. */
  carrierSettingsId: string | null;
  /** The carrier's id of the number (Twilio's PN… sid), when it has one. */
  carrierNumberId?: string | null;
  messagesPerSecond: number;
}

/**
 * Writes a number of a connection, active and verified at once (the connection vouches for it), with its type
 * as the phone library reports it and its own country as destination; `audit` records who added it, in the
 * same transaction, and phoneNumberAdded is announced. A number active anywhere meets the active-number
 * index: 409, nothing written.
 */
export async function insertConnectionNumber(db: Db, input: ConnectionNumberRow, audit: (tx: Tx, row: PhoneNumberRow) => Promise<void>): Promise<PhoneNumberRow> {
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(phoneNumbers)
      .values({
        id: uuidv7(),
        accountId: input.accountId,
        number: input.e164,
        name: input.name,
        country: input.country,
        type: typeOfNumber(input.e164),
        carrier: input.carrier,
        carrierSettingsId: input.carrierSettingsId,
        carrierNumberId: input.carrierNumberId ?? null,
        status: 'active',
        hosted: false,
        verifiedAt: new Date(),
        supportedDestinations: [input.country],
        messagesPerSecond: input.messagesPerSecond,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) return null;
    await audit(tx, inserted);
    await publishEvent(tx, { type: 'phoneNumberAdded', accountId: input.accountId, data: { phoneNumber: presentPhoneNumber(inserted) } });
    return inserted;
  });
  if (row === null) throw new AppError(409, 'conflict', PHONE_NUMBER_TAKEN_MESSAGE);
  return row;
}
