import { and, eq, sql } from 'drizzle-orm';
import { CRADLE_DEFAULT_PROPERTIES, cradlePropertiesSchema, normaliseContactMobile } from '@parley/shared';
import { integrations, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { textBackMissedCall, type TextBackOutcome } from '../../calls/index.js';
import { openCredentials, type IntegrationDeps } from '../integrationStore.js';
import { activeNumberOf, recordProviderCalls } from '../providerCalls.js';
import { cradleEventSchema, providerCallOf } from './cradleCalls.js';
import { cradleSignatureOk } from './cradleSignature.js';

export const CRADLE_UNKNOWN_WEBHOOK = 'No Cradle connection has this webhook address';
export const CRADLE_UNSIGNED_MESSAGE = 'The request is not signed by Cradle';
export const CRADLE_NOT_A_CALL = 'The body is not a Cradle call event';
export const CRADLE_NO_NUMBER = 'The account has no active number to file the call under';

export interface CradleDelivery {
  key: string;
  rawBody: Buffer;
  signature: string | string[] | undefined;
}

export interface CradleWebhookAnswer {
  call: { id: string } | null;
  textBack: TextBackOutcome['outcome'];
}

async function connectionOf(deps: IntegrationDeps, key: string): Promise<IntegrationRow> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(key)) throw new AppError(404, 'not_found', CRADLE_UNKNOWN_WEBHOOK);
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.kind, 'cradle'), sql`${integrations.connection}->>'webhookKey' = ${key}`))
    .limit(1);
  if (row === undefined) throw new AppError(404, 'not_found', CRADLE_UNKNOWN_WEBHOOK);
  return row;
}

function eventOf(rawBody: Buffer) {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError(400, 'bad_request', CRADLE_NOT_A_CALL);
  }
  const parsed = cradleEventSchema.safeParse(body);
  if (!parsed.success) throw new AppError(400, 'bad_request', CRADLE_NOT_A_CALL);
  return parsed.data;
}

/**
 * Cradle's call webhook (docs/integrations.md, "Cradle"): the address's key names the connection, the
 * X-Cradle-Signature header must sign the exact body with that connection's secret (else 401, nothing read).
 * The call is filed by its number pair: the caller's conversation on the account's number Cradle's side of the
 * call is (else the integration's chosen number); a missed call is texted back once per call and per caller
 * per window, however often Cradle delivers it.
 */
export async function receiveCradleWebhook(deps: IntegrationDeps, delivery: CradleDelivery): Promise<CradleWebhookAnswer> {
  const row = await connectionOf(deps, delivery.key);
  const { signingSecret = '' } = await openCredentials(deps, row);
  if (!cradleSignatureOk(signingSecret, delivery.rawBody, delivery.signature)) throw new AppError(401, 'unauthorized', CRADLE_UNSIGNED_MESSAGE);
  const event = eventOf(delivery.rawBody);
  if (event.event !== 'call.completed') return { call: null, textBack: 'notAsked' };
  const reported = providerCallOf(event.call);
  const parsed = cradlePropertiesSchema.safeParse({ ...CRADLE_DEFAULT_PROPERTIES, ...row.properties });
  const settings = parsed.success ? parsed.data : CRADLE_DEFAULT_PROPERTIES;
  const ours = normaliseContactMobile(reported.direction === 'inbound' ? reported.to : reported.from, null, null).number;
  const pairNumber = await activeNumberOf(deps.db, row.accountId, ours);
  const filing = { accountId: row.accountId, kind: 'cradle' as const, callNumberId: pairNumber ?? settings.callNumberId };
  const [call] = await deps.db.transaction((tx) => recordProviderCalls(tx, filing, [reported]));
  if (call === undefined) throw new AppError(409, 'conflict', CRADLE_NO_NUMBER);
  const outcome = await textBackMissedCall(deps.db, call, { enabled: settings.textBackEnabled, templateId: settings.textBackTemplateId, windowHours: settings.textBackWindowHours });
  return { call: { id: call.id }, textBack: outcome.outcome };
}
