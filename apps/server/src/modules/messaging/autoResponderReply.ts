import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { contactReachability } from '../contacts/index.js';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { ContactRow, MessageRow } from '../../platform/db/schema/index.js';
import { ChargeRefusedError, InsufficientBalanceError } from '../billing/index.js';
import { queueChargedReply } from './autoResponderCharge.js';
import { firstMatching } from './autoResponderMatch.js';

export interface AutoReplyContext {
  accountId: string;
  /** The contact as locked by the inbound transaction. */
  contact: ContactRow;
  conversationId: string;
  /** The number the contact wrote to. */
  phoneNumber: { id: string; number: string };
  /** The incoming message, already written. */
  message: MessageRow;
  now: Date;
}

interface ResponderRow extends Record<string, unknown> {
  id: string;
  match: string;
  response: string;
  advanced: boolean;
}

/**
 * The account's responders in the order they are tried: oldest first. None on a trial plan: the feature is
 * not part of it (docs/autoResponders.md), whatever rows a plan change left behind.
 */
async function respondersOf(tx: Tx, accountId: string): Promise<ResponderRow[]> {
  return queryRows<ResponderRow>(
    tx,
    sql`select r.id, r.match, r.response, r.advanced
          from auto_responders r
          join accounts a on a.id = r.account_id
          join plans p on p.id = a.plan_id
         where r.account_id = ${accountId} and not p.is_trial
         order by r.created_at, r.id`,
  );
}

/**
 * Answers an incoming message with the account's oldest matching auto responder, in the inbound
 * transaction; called only when no compliance keyword handled the message. A blocked, opted-out or invalid
 * contact gets nothing. At most one reply per inbound message: one responder answers, the charge carries
 * the message's key, and a redelivered message never gets here (inbound.ts stores it once). The reply is
 * charged like any message; when the balance cannot cover it, or anything else goes wrong with the reply,
 * it is logged and dropped (a savepoint undoes its writes) and the inbound message is still received.
 */
export async function answerWithAutoResponder(tx: Tx, context: AutoReplyContext, log: Logger): Promise<MessageRow | null> {
  if (contactReachability(context.contact) !== 'reachable') return null;
  const responders = await respondersOf(tx, context.accountId);
  if (responders.length === 0) return null;
  const responder = firstMatching(responders, context.message.body);
  if (responder === null) return null;

  const where = { accountId: context.accountId, inboundMessageId: context.message.id, autoResponderId: responder.id };
  try {
    return await tx.transaction((savepoint) =>
      queueChargedReply(
        savepoint,
        {
          accountId: context.accountId,
          contact: context.contact,
          conversationId: context.conversationId,
          phoneNumber: context.phoneNumber,
          replyTo: context.message,
          template: responder.response,
          now: context.now,
        },
        log.child(where),
      ),
    );
  } catch (error) {
    if (error instanceof ChargeRefusedError) {
      const why = error instanceof InsufficientBalanceError ? 'the balance cannot cover it' : 'the trial has expired';
      log.warn(where, `auto reply not sent: ${why}`);
      return null;
    }
    log.error({ ...where, err: error }, 'auto reply failed; the inbound message is kept');
    return null;
  }
}
