import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { CarrierName } from '../carriers/index.js';
import type { CarrierRegistry } from '../carriers/index.js';
import { queryRows, type Db } from '../../platform/db/client.js';
import { publishStatusEvents } from './dispatcherRefunds.js';
import { failMessages } from './dispatcherResults.js';
import { at } from './dispatcherRows.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

export const UNKNOWN_OUTCOME_CODE = 'unknown-outcome';
export const UNKNOWN_OUTCOME_DESCRIPTION =
  'The process sending this message stopped before the carrier answered, so it is not known whether the ' +
  'message went out. It was not sent again, so it cannot arrive twice, and its charge was refunded.';

export interface Recovered {
  /** Put back in the queue to be submitted again (the carrier takes a repeated submit as the same message). */
  requeued: number;
  /** Failed with 'unknown-outcome' and refunded. */
  failed: number;
}

interface StaleRef extends Record<string, unknown> {
  carrier: CarrierName | null;
  carrier_settings_id: string | null;
}

/**
 * Messages whose dispatcher died mid-batch: 'sending' with a claim older than the lease (a live dispatcher
 * renews its claims while submits are in flight). The submit may or may not have reached the carrier, and a
 * message must never go twice, so: a carrier with idempotent submits (the simulator keys on our message id)
 * gets it again through the queue; any other (SMPP, Twilio) cannot be asked, so the message fails with
 * 'unknown-outcome' and is refunded. Up to `limit` messages per call, SKIP LOCKED among dispatchers.
 */
export async function recoverStaleClaims(
  db: Db,
  carriers: CarrierRegistry,
  options: { now: Date; leaseSeconds: number; limit: number },
  log: Logger,
): Promise<Recovered> {
  const cutoff = new Date(options.now.getTime() - options.leaseSeconds * 1000);
  const refs = await queryRows<StaleRef>(
    db,
    sql`select distinct p.carrier, p.carrier_settings_id
          from messages m left join phone_numbers p on p.id = m.phone_number_id
         where m.status = 'sending' and m.claimed_at < ${at(cutoff)}`,
  );
  if (refs.length === 0) return { requeued: 0, failed: 0 };

  // Asked before the transaction: creating an adapter may connect (an SMPP bind), never while rows are locked.
  const idempotent: { carrier: string; settings: string | null }[] = [];
  for (const ref of refs) {
    if (ref.carrier === null) continue;
    try {
      const carrier = await carriers.forNumber({ carrier: ref.carrier, carrierSettingsId: ref.carrier_settings_id });
      if (carrier.capabilities.idempotentSubmit) idempotent.push({ carrier: ref.carrier, settings: ref.carrier_settings_id });
    } catch (error) {
      log.warn({ err: error, carrier: ref.carrier }, 'carrier unavailable while recovering stale messages');
    }
  }

  return db.transaction(async (tx) => {
    const stale = await queryRows<{ id: string; resubmit: boolean }>(
      tx,
      sql`select m.id,
                 exists (select 1 from json_to_recordset(${jsonRecords(idempotent)}) as r(carrier text, settings uuid)
                          where r.carrier = p.carrier and r.settings is not distinct from p.carrier_settings_id) as resubmit
            from messages m left join phone_numbers p on p.id = m.phone_number_id
           where m.status = 'sending' and m.claimed_at < ${at(cutoff)}
           order by m.claimed_at
           limit ${options.limit}
             for no key update of m skip locked`,
    );
    const resubmit = stale.filter((row) => row.resubmit).map((row) => ({ id: row.id }));
    if (resubmit.length > 0) {
      await tx.execute(sql`
        update messages m set status = 'queued', claimed_at = null, send_after = ${at(options.now)}
          from json_to_recordset(${jsonRecords(resubmit)}) as v(id uuid)
         where m.id = v.id and m.status = 'sending'`);
    }
    const unknown = stale
      .filter((row) => !row.resubmit)
      .map((row) => ({ id: row.id, code: UNKNOWN_OUTCOME_CODE, text: UNKNOWN_OUTCOME_DESCRIPTION }));
    const failed = await failMessages(tx, unknown, options.now, sql`m.status = 'sending'`);
    await publishStatusEvents(tx, failed);
    if (stale.length > 0) {
      log.warn({ requeued: resubmit.length, failed: failed.length }, 'recovered messages of a dispatcher that stopped mid-batch');
    }
    return { requeued: resubmit.length, failed: failed.length };
  });
}
