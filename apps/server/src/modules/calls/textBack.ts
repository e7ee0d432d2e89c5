import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { unansweredCallStatuses } from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { callTextBacks, type CallRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { sendMessagesIn } from '../messaging/index.js';
import { findTemplate } from '../templates/index.js';

/** What an integration's properties say about text-backs. */
export interface TextBackSettings {
  enabled: boolean;
  /** The saved template sent ('' for none: nothing is sent). */
  templateId: string;
  /** A caller gets one text-back per this many hours. */
  windowHours: number;
}

export type TextBackOutcome =
  | { outcome: 'sent'; messageId: string }
  | { outcome: 'notAsked' }
  | { outcome: 'alreadyDone' }
  | { outcome: 'refused'; reason: string };

export const TEXT_BACK_TEMPLATE_GONE = 'The text-back template no longer exists';
export const textBackWithinWindow = (hours: number): string => `The caller was texted back less than ${String(hours)} h ago`;

// Parley reads the template as the account's administrator would: a private one is still the account's.
const SYSTEM_VIEWER = { role: 'Administrator' as const, userId: '00000000-0000-0000-0000-000000000000' };

const asksForTextBack = (call: CallRow, settings: TextBackSettings): boolean =>
  settings.enabled && settings.templateId !== '' && call.direction === 'inbound' && unansweredCallStatuses.includes(call.status);

/** The template sent through messaging's sender (consent, quiet hours, balance as for every send), in a savepoint. */
async function send(tx: Tx, call: CallRow, settings: TextBackSettings, now: Date): Promise<{ messageId: string } | { reason: string }> {
  const found = await findTemplate(tx, call.accountId, SYSTEM_VIEWER, settings.templateId);
  if (found === null) return { reason: TEXT_BACK_TEMPLATE_GONE };
  try {
    const result = await tx.transaction((inner) =>
      sendMessagesIn(inner, {
        accountId: call.accountId,
        actor: { kind: 'system' },
        conversationIds: [call.conversationId],
        template: found.template.template,
        media: found.template.media,
        templateId: found.template.id,
        chargeDescription: `Missed-call text-back to ${call.fromNumber}`,
        whenNoneSendable: 'return',
        now,
      }),
    );
    const message = result.messages[0];
    if (message !== undefined) return { messageId: message.id };
    return { reason: result.unsendable[0]?.error.message ?? 'The caller cannot be texted' };
  } catch (error) {
    if (error instanceof AppError) return { reason: error.message };
    throw error;
  }
}

/**
 * The missed-call text-back (docs/calls.md): an inbound call that was missed, went to voicemail or was busy
 * gets the template, in its conversation (so from the number the call is filed under), at most once per
 * caller per window per account, whatever the webhooks: an advisory lock on the account and caller holds
 * concurrent deliveries one after the other in their transactions, and the row of each call (unique) says
 * it was handled. A refused send (opted out, blocked, no balance) is recorded with its reason and does not
 * use the window.
 */
export function textBackMissedCall(db: Db, call: CallRow, settings: TextBackSettings, now: Date = new Date()): Promise<TextBackOutcome> {
  if (!asksForTextBack(call, settings)) return Promise.resolve({ outcome: 'notAsked' });
  return db.transaction(async (tx): Promise<TextBackOutcome> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`textBack:${call.accountId}:${call.fromNumber}`}, 0))`);
    const [done] = await tx.select({ id: callTextBacks.id }).from(callTextBacks).where(eq(callTextBacks.callId, call.id));
    if (done !== undefined) return { outcome: 'alreadyDone' };
    const since = new Date(now.getTime() - settings.windowHours * 3_600_000);
    const [recent] = await tx
      .select({ id: callTextBacks.id })
      .from(callTextBacks)
      .where(and(eq(callTextBacks.accountId, call.accountId), eq(callTextBacks.callerNumber, call.fromNumber), eq(callTextBacks.outcome, 'sent'), gt(callTextBacks.createdAt, since)))
      .orderBy(desc(callTextBacks.createdAt))
      .limit(1);
    const sent = recent === undefined ? await send(tx, call, settings, now) : { reason: textBackWithinWindow(settings.windowHours) };
    const row = { id: uuidv7(), accountId: call.accountId, callId: call.id, callerNumber: call.fromNumber, createdAt: now };
    if ('messageId' in sent) {
      await tx.insert(callTextBacks).values({ ...row, outcome: 'sent', messageId: sent.messageId });
      return { outcome: 'sent', messageId: sent.messageId };
    }
    await tx.insert(callTextBacks).values({ ...row, outcome: 'refused', reason: sent.reason });
    return { outcome: 'refused', reason: sent.reason };
  });
}
