import { sql, type SQL } from 'drizzle-orm';
import type { NumberCarrierRef } from '../carriers/index.js';

/*
 * What both ways an incoming message takes in (inbound.ts, inboundKnown.ts) read about the number it was
 * sent to, over `phone_numbers p join accounts a`, in their one statement.
 */

/**
 * The group holding the number (the oldest when several do: new conversations on it belong to that group),
 * a message already stored with this carrier id (a redelivery), and whether the account may use auto
 * responders (it has some, and is not on a trial plan).
 */
export function inboundNumberColumns(carrierMessageId: string): SQL {
  return sql`(select g.id from group_phone_numbers gp join groups g on g.id = gp.group_id
               where gp.phone_number_id = p.id and g.account_id = p.account_id
               order by g.created_at, g.id limit 1) as group_id,
             (select m.id from messages m where m.direction = 'inbound' and m.phone_number_id = p.id
                 and m.carrier_message_id = ${carrierMessageId} limit 1) as earlier_id,
             (exists (select 1 from auto_responders r where r.account_id = p.account_id)
               and not exists (select 1 from plans pl where pl.id = a.plan_id and pl.is_trial)) as has_responders`;
}

/**
 * The active number of an active account the message was sent to (carriers may leave out the '+'), on the
 * connection the message arrived on: a connection reaches only its own numbers, so an account that signs
 * webhooks for its own Twilio account, or runs its own SMSC, cannot write into another account
 * (docs/security.md).
 */
export function activeNumberIs(to: string, source: NumberCarrierRef): SQL {
  const candidates = to.startsWith('+') ? [to] : [to, `+${to}`];
  return sql`p.number in (${sql.join(
    candidates.map((c) => sql`${c}`),
    sql`, `,
  )}) and p.status = 'active' and a.status = 'active'
      and p.carrier = ${source.carrier} and p.carrier_settings_id is not distinct from ${source.carrierSettingsId}::uuid`;
}
