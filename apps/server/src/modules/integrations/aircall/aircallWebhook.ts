import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { AIRCALL_DEFAULT_PROPERTIES, aircallPropertiesSchema, type AirCallProperties } from '@parley/shared';
import { integrations, messages, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { textBackMissedCall, type TextBackOutcome } from '../../calls/index.js';
import { openCredentials, sessionOf, type IntegrationDeps } from '../integrationStore.js';
import { ProviderError } from '../providerError.js';
import { recordProviderCalls } from '../providerCalls.js';
import { aircallInsightCard } from './aircallApi.js';
import { AIRCALL_CALL_EVENTS, aircallCallSchema, aircallEventSchema, providerCallOf } from './aircallCalls.js';
import { aircallConnector, aircallTarget } from './aircallConnector.js';
import { lineNumberOf } from './aircallDirectory.js';

export const AIRCALL_UNKNOWN_WEBHOOK = 'No AirCall connection has this webhook address';
export const AIRCALL_TOKEN_REFUSED = "The request does not carry this connection's AirCall webhook token";
export const AIRCALL_NOT_A_CALL = 'The event is not an AirCall call with an id and both numbers';
export const AIRCALL_NO_NUMBER = 'The account has no active number to file the call under';
export const AIRCALL_TEXT_BACK_CARD_TITLE = 'Texted back by Parley';

export interface AirCallWebhookAnswer {
  /** Null for an event that is not a call's (answered, and left alone). */
  call: { id: string } | null;
  textBack: TextBackOutcome['outcome'];
  /** The text-back shown on the AirCall call. */
  insightCard: 'posted' | 'failed' | 'notAsked';
}

async function connectionOf(deps: IntegrationDeps, key: string): Promise<IntegrationRow> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(key)) throw new AppError(404, 'not_found', AIRCALL_UNKNOWN_WEBHOOK);
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.kind, 'aircall'), sql`${integrations.connection}->>'webhookKey' = ${key}`))
    .limit(1);
  if (row === undefined) throw new AppError(404, 'not_found', AIRCALL_UNKNOWN_WEBHOOK);
  return row;
}

/** Constant-time: both sides are hashed first, so neither their content nor their length shows in the timing. */
export function aircallTokenOk(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given === '' || expected === '') return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

const settingsOf = (row: IntegrationRow): AirCallProperties => {
  const parsed = aircallPropertiesSchema.safeParse({ ...AIRCALL_DEFAULT_PROPERTIES, ...row.properties });
  return parsed.success ? parsed.data : AIRCALL_DEFAULT_PROPERTIES;
};

/** The text-back as an insight card on the AirCall call it answers; AirCall's failure leaves the text sent. */
async function showTextBack(deps: IntegrationDeps, row: IntegrationRow, callId: string, messageId: string): Promise<'posted' | 'failed'> {
  const [message] = await deps.db.select({ body: messages.body }).from(messages).where(and(eq(messages.accountId, row.accountId), eq(messages.id, messageId)));
  try {
    const target = aircallTarget(await sessionOf(deps, aircallConnector, row));
    await aircallInsightCard(target, callId, [
      { type: 'title', text: AIRCALL_TEXT_BACK_CARD_TITLE },
      { type: 'shortText', label: 'Text', text: message?.body ?? '' },
    ]);
    return 'posted';
  } catch (error) {
    if (error instanceof ProviderError) return 'failed';
    throw error;
  }
}

/**
 * AirCall's webhook (docs/integrations.md, "AirCall"): the address's key names the connection, the body's
 * `token` must be the token AirCall gave for this connection's webhook (else 401, and nothing is read). A call
 * event files the call in the caller's conversation on the number the AirCall number maps to (else the
 * integration's choice); a later event of the same call updates it; a missed call or voicemail is texted back
 * as the properties say, once per call and per caller per window, and the text shown on the AirCall call.
 */
export async function receiveAirCallWebhook(deps: IntegrationDeps, delivery: { key: string; body: unknown }): Promise<AirCallWebhookAnswer> {
  const row = await connectionOf(deps, delivery.key);
  const { webhookToken = '' } = await openCredentials(deps, row);
  const event = aircallEventSchema.safeParse(delivery.body);
  if (!event.success || !aircallTokenOk(webhookToken, event.data.token)) throw new AppError(401, 'unauthorized', AIRCALL_TOKEN_REFUSED);
  if (!AIRCALL_CALL_EVENTS.includes(event.data.event)) return { call: null, textBack: 'notAsked', insightCard: 'notAsked' };
  const data = aircallCallSchema.safeParse(event.data.data);
  const reported = data.success ? providerCallOf(event.data.event, data.data) : null;
  if (!data.success || reported === null) throw new AppError(400, 'bad_request', AIRCALL_NOT_A_CALL);
  const settings = settingsOf(row);
  const lineNumber = data.data.number === null || data.data.number === undefined ? null : await lineNumberOf(deps.db, row.accountId, data.data.number.id);
  const filing = { accountId: row.accountId, kind: 'aircall' as const, callNumberId: lineNumber ?? settings.callNumberId };
  const [call] = await deps.db.transaction((tx) => recordProviderCalls(tx, filing, [reported]));
  if (call === undefined) throw new AppError(409, 'conflict', AIRCALL_NO_NUMBER);
  const outcome = await textBackMissedCall(deps.db, call, { enabled: settings.textBackEnabled, templateId: settings.textBackTemplateId, windowHours: settings.textBackWindowHours });
  const insightCard = outcome.outcome === 'sent' && settings.recordTextBacks ? await showTextBack(deps, row, data.data.id, outcome.messageId) : 'notAsked';
  return { call: { id: call.id }, textBack: outcome.outcome, insightCard };
}
