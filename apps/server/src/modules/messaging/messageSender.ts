import { eq } from 'drizzle-orm';
import { unitsToMoney } from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { findOrAddContactsByMobile } from '../contacts/index.js';
import { requireOwnMedia } from '../media/index.js';
import { activeSenderNumbers, senderCandidates } from './senderNumbers.js';
import { requireVerifiedEmail } from '../../platform/policies/verifiedEmail.js';
import { debitAccount, InsufficientBalanceError, requireOpenTrial } from '../billing/index.js';
import { personalizeTrackedLinks, recordRecipientCodes, shortenLinks } from '../links/index.js';
import { addressRecipients, loadAccountSendContext, prepareMessages, type PreparedMessage } from './messageSenderPrepare.js';
import { checkFilteredRecipients, contactsOfFilters, loadRecipients } from './messageSenderRecipients.js';
import { scheduleMessages } from './messageSenderSchedule.js';
import { NONE_SENDABLE_MESSAGE, SEND_NOW_ONE_RECIPIENT_MESSAGE, type SendActor, type SendMessagesInput, type SendMessagesResult } from './messageSenderTypes.js';
import { writeMessages } from './messageSenderWrite.js';

export * from './messageSenderTypes.js';

export const ALREADY_CHARGED_MESSAGE = 'This send was already charged and queued.';

/** A person must have verified their e-mail before anything is charged; API clients and Parley need not. */
async function checkActor(tx: Tx, actor: SendActor): Promise<string | null> {
  switch (actor.kind) {
    case 'user': {
      const [user] = await tx.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, actor.userId)).limit(1);
      requireVerifiedEmail({ emailVerifiedAt: user?.emailVerifiedAt ?? null });
      return actor.userId;
    }
    case 'apiClient':
    case 'system':
      return null;
  }
}

function chargeDescription(prepared: readonly PreparedMessage[]): string {
  const [only] = prepared;
  return prepared.length === 1 && only !== undefined ? `Message to ${only.recipient.contact.mobileNumber}` : `${String(prepared.length)} messages`;
}

/**
 * Step 1 of the path of a message (DESIGN.md), in the caller's transaction: the actor's right to spend,
 * media that is the account's own (else 404), each recipient's consent, the number each is texted from,
 * the text (its URLs shortened when the account asks for it), segments and price of each message, the conversations, the queued messages (held until the
 * recipient's quiet hours end), their messageSent events and, last, ONE ledger debit for the lot.
 * 402 'Insufficient Credit' or `trial_expired` (or any refusal) throws, and the caller's transaction must roll back: then
 * nothing is written. The same code serves one message from the API and a campaign's thousands: the work is
 * done in memory and written in a few set-based statements.
 */
export async function sendMessagesIn(tx: Tx, input: SendMessagesInput): Promise<SendMessagesResult> {
  const now = input.now ?? new Date();
  const { accountId } = input;
  const createdByUserId = await checkActor(tx, input.actor);
  const media = input.media ?? [];
  // Every send path comes through here: another account's media never goes out (docs/media.md).
  await requireOwnMedia(tx, accountId, media);
  const context = await loadAccountSendContext(tx, accountId);
  // An expired trial refuses the send before any work; the debit below holds the same rule.
  requireOpenTrial(context.trial, now);
  const byMobile = await findOrAddContactsByMobile(tx, accountId, input.contactsByMobile ?? []);
  const filtered = await contactsOfFilters(tx, accountId, input.filters);
  const recipients = await loadRecipients(tx, accountId, [...(input.contactIds ?? []), ...byMobile, ...filtered], input.conversationIds ?? []);
  checkFilteredRecipients(input.filters, recipients);
  const active = await activeSenderNumbers(tx, accountId);
  const candidates = recipients.some((r) => r.conversation === null)
    ? await senderCandidates(tx, accountId, active, input.phoneNumberFilter)
    : null;

  const addressed = addressRecipients(recipients, active, candidates);
  // URLs become short links (when the account asks for it) before segments and price are counted, once a call.
  const { text: template } = await shortenLinks(tx, accountId, input.template, 'send', now);
  const ready = prepareMessages(context, addressed.addressed, template, media.length > 0);
  const unsendable = [...addressed.unsendable, ...ready.unsendable];
  // Tracked links get each recipient's own code (same length: segments and price stay as counted).
  const tracking = await personalizeTrackedLinks(tx, accountId, ready.prepared);
  const prepared = tracking.messages;

  if (prepared.length === 0) {
    if (input.whenNoneSendable === 'return') return { messages: [], unsendable, requested: recipients.length, charged: '0.0000' };
    const [first] = unsendable;
    if (recipients.length === 1 && first !== undefined) throw first.error;
    throw new AppError(400, 'bad_request', NONE_SENDABLE_MESSAGE);
  }

  const total = prepared.reduce((sum, p) => sum + p.priceUnits, 0n);
  const charged = unitsToMoney(total);
  // A balance that cannot cover the send refuses it before anything is written; the debit below decides.
  if (context.balanceUnits < total) throw new InsufficientBalanceError();

  const oneToOne = recipients.length === 1 && input.jobId == null;
  if (input.sendNow === true && !oneToOne) throw new AppError(400, 'bad_request', SEND_NOW_ONE_RECIPIENT_MESSAGE);
  const schedules = await scheduleMessages(tx, context, prepared, { oneToOne, sendNow: input.sendNow === true }, now);
  const rows = await writeMessages(
    tx,
    {
      accountId,
      createdByUserId,
      templateId: input.templateId ?? null,
      jobId: input.jobId ?? null,
      eventType: input.eventType ?? null,
      media,
    },
    prepared,
    schedules,
    now,
  );
  await recordRecipientCodes(tx, accountId, tracking.pending, rows.map((row) => row.id), now);
  // The debit comes last: it locks the account row until the commit, so sends of one account (a campaign's
  // batches side by side) overlap in everything but this. A refusal here (the balance spent meanwhile, the
  // key already used) throws, and the caller's transaction takes back all the writes above.
  if (total > 0n) {
    const entry = await debitAccount(tx, {
      accountId,
      amount: charged,
      description: input.chargeDescription ?? chargeDescription(prepared),
      now,
      ...(input.chargeIdempotencyKey === undefined ? {} : { idempotencyKey: input.chargeIdempotencyKey }),
    });
    // The same key again means these messages were queued by the earlier call: never twice.
    if (entry.duplicate) throw new AppError(409, 'conflict', ALREADY_CHARGED_MESSAGE);
  }
  return { messages: rows, unsendable, requested: recipients.length, charged };
}

/** sendMessagesIn in a transaction of its own: everything is written, or (on any refusal) nothing. */
export function sendMessages(db: Db, input: SendMessagesInput): Promise<SendMessagesResult> {
  return db.transaction((tx) => sendMessagesIn(tx, input));
}
