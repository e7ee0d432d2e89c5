import { and, eq, sql } from 'drizzle-orm';
import { CALLRAIL_DEFAULT_PROPERTIES, callRailPropertiesSchema } from '@parley/shared';
import { integrations, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { textBackMissedCall, type TextBackOutcome } from '../../calls/index.js';
import { openCredentials, type IntegrationDeps } from '../integrationStore.js';
import { callFilingOf, recordProviderCalls } from '../providerCalls.js';
import { callRailCallSchema } from './callRailApi.js';
import { providerCallOf } from './callRailCalls.js';
import { callRailSignatureOk } from './callRailSignature.js';

export const CALLRAIL_UNKNOWN_WEBHOOK = 'No CallRail connection has this webhook address';
export const CALLRAIL_UNSIGNED_MESSAGE = 'The request is not signed by CallRail';
export const CALLRAIL_NOT_A_CALL = 'The body is not a CallRail call with an id and a customer number';
export const CALLRAIL_NO_NUMBER = 'The account has no active number to file the call under';

export interface CallRailDelivery {
  token: string;
  rawBody: Buffer;
  signature: string | string[] | undefined;
}

export interface CallRailWebhookAnswer {
  call: { id: string };
  textBack: TextBackOutcome['outcome'];
}

async function connectionOf(deps: IntegrationDeps, token: string): Promise<IntegrationRow> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) throw new AppError(404, 'not_found', CALLRAIL_UNKNOWN_WEBHOOK);
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.kind, 'callrail'), sql`${integrations.connection}->>'webhookToken' = ${token}`))
    .limit(1);
  if (row === undefined) throw new AppError(404, 'not_found', CALLRAIL_UNKNOWN_WEBHOOK);
  return row;
}

function callOf(rawBody: Buffer) {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError(400, 'bad_request', CALLRAIL_NOT_A_CALL);
  }
  const parsed = callRailCallSchema.safeParse(body);
  const call = parsed.success ? providerCallOf(parsed.data) : null;
  if (call === null) throw new AppError(400, 'bad_request', CALLRAIL_NOT_A_CALL);
  return call;
}

/**
 * CallRail's post-call webhook (docs/integrations.md, "CallRail"): the address's token names the connection,
 * the `Signature` header must be the body's signature with that connection's signing key (else 401, and
 * nothing is read). The call is filed in the caller's conversation (the caller created as a contact when new),
 * a second delivery of it updates it, and a missed call is texted back as the properties say: once per call
 * and per caller per window, whatever CallRail retries.
 */
export async function receiveCallRailWebhook(deps: IntegrationDeps, delivery: CallRailDelivery): Promise<CallRailWebhookAnswer> {
  const row = await connectionOf(deps, delivery.token);
  const { signingKey = '' } = await openCredentials(deps, row);
  if (!callRailSignatureOk(signingKey, delivery.rawBody, delivery.signature)) throw new AppError(401, 'unauthorized', CALLRAIL_UNSIGNED_MESSAGE);
  const reported = callOf(delivery.rawBody);
  const [call] = await deps.db.transaction((tx) => recordProviderCalls(tx, callFilingOf(row.accountId, 'callrail', row.properties), [reported]));
  if (call === undefined) throw new AppError(409, 'conflict', CALLRAIL_NO_NUMBER);
  const properties = callRailPropertiesSchema.safeParse({ ...CALLRAIL_DEFAULT_PROPERTIES, ...row.properties });
  const settings = properties.success ? properties.data : CALLRAIL_DEFAULT_PROPERTIES;
  const outcome = await textBackMissedCall(deps.db, call, {
    enabled: settings.textBackEnabled,
    templateId: settings.textBackTemplateId,
    windowHours: settings.textBackWindowHours,
  });
  return { call: { id: call.id }, textBack: outcome.outcome };
}
