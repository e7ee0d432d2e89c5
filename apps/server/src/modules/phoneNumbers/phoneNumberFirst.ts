import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { AvailableNumber, Carrier } from '../carriers/index.js';
import { DEPLOYMENT_SIMULATOR as SIMULATOR, type CarrierRegistry } from '../carriers/index.js';
import type { Config } from '../../platform/config.js';
import type { Db, Tx } from '../../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { presentPhoneNumber } from './phoneNumberPresenter.js';
import { rateFor, typeOfNumber } from './phoneNumberCarrier.js';

/** How many numbers of the inventory are read as candidates: enough to outlast a burst of sign-ups. */
const CANDIDATES = 20;
const FALLBACK_COUNTRY = 'US';

/** A number waiting for a new account: claimed in its transaction, bought from the carrier after the commit. */
export interface FirstNumberOffer {
  /** Inside the account's transaction: the first candidate no account holds, active at once; null if none is left. */
  claim(tx: Tx, accountId: string): Promise<PhoneNumberRow | null>;
  /** After the commit: buys the claimed number; a refusal releases it again (and is logged). */
  settle(row: PhoneNumberRow): Promise<void>;
}

/** Gives each new account its first number; `prepare` runs before the account's transaction. */
export interface FirstNumbers {
  prepare(country: string): Promise<FirstNumberOffer | null>;
}

export interface FirstNumbersContext {
  config: Pick<Config, 'databaseUrl'>;
  carriers: CarrierRegistry;
  database: { db: Db };
  log: Logger;
}

/**
 * In embedded mode with the simulator, a new account gets a simulator number at once, so a newcomer can
 * text a virtual phone straight away; a PostgreSQL deployment buys its numbers deliberately (null here).
 */
export function embeddedFirstNumbers(ctx: FirstNumbersContext): FirstNumbers | null {
  if (ctx.config.databaseUrl !== null || !ctx.carriers.configured.includes('simulator')) return null;
  const log = ctx.log.child({ component: 'firstNumber' });
  return {
    async prepare(country) {
      try {
        const carrier = await ctx.carriers.forNumber(SIMULATOR);
        // Read before the account's transaction: the simulator reads the database itself (PGlite: one connection).
        let candidates = await carrier.availableNumbers({ country, limit: CANDIDATES });
        if (candidates.length === 0 && country !== FALLBACK_COUNTRY) {
          candidates = await carrier.availableNumbers({ country: FALLBACK_COUNTRY, limit: CANDIDATES });
        }
        if (candidates.length === 0) {
          log.warn({ country }, 'the simulator has no number left for a new account');
          return null;
        }
        const messagesPerSecond = await rateFor(ctx.database.db, carrier.name, carrier.capabilities);
        return offerOf(ctx.database.db, carrier, candidates, messagesPerSecond, log);
      } catch (error) {
        log.warn({ err: error, country }, 'no first number for a new account: the simulator could not be asked');
        return null;
      }
    },
  };
}

function offerOf(db: Db, carrier: Carrier, candidates: readonly AvailableNumber[], messagesPerSecond: number, log: Logger): FirstNumberOffer {
  return {
    async claim(tx, accountId) {
      for (const candidate of candidates) {
        // Another account may have taken it since the inventory was read: the active-number index says so.
        const [row] = await tx
          .insert(phoneNumbers)
          .values({
            id: uuidv7(),
            accountId,
            number: candidate.number,
            name: '',
            country: candidate.country,
            type: typeOfNumber(candidate.number),
            carrier: SIMULATOR.carrier,
            carrierSettingsId: SIMULATOR.carrierSettingsId,
            status: 'active',
            hosted: false,
            verifiedAt: new Date(),
            supportedDestinations: [candidate.country],
            messagesPerSecond,
          })
          .onConflictDoNothing()
          .returning();
        if (row) {
          await publishEvent(tx, { type: 'phoneNumberAdded', accountId, data: { phoneNumber: presentPhoneNumber(row) } });
          return row;
        }
      }
      log.warn({ accountId }, 'every candidate number was taken meanwhile; the account starts without a number');
      return null;
    },
    async settle(row) {
      try {
        const { carrierNumberId } = await carrier.buyNumber(row.number);
        await db.update(phoneNumbers).set({ carrierNumberId }).where(eq(phoneNumbers.id, row.id));
      } catch (error) {
        log.warn({ err: error, accountId: row.accountId, number: row.number }, 'the first number could not be bought; released');
        await db
          .update(phoneNumbers)
          .set({ status: 'released' })
          .where(and(eq(phoneNumbers.id, row.id), eq(phoneNumbers.accountId, row.accountId)));
      }
    },
  };
}
