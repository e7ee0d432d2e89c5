import { and, asc, eq } from 'drizzle-orm';
import { callSources, type CallSource, type IntegrationKind } from '@parley/shared';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { phoneNumbers, type CallRow } from '../../platform/db/schema/index.js';
import { recordCallIn } from '../calls/index.js';
import type { ProviderCall } from './connector.js';

/*
 * Calls a connector reports (a sync page's, a webhook's), filed in the callers' conversations through the
 * calls module (docs/calls.md). Every call connector (CallRail, AirCall, Cradle) comes through here.
 */

/** Where an integration files its calls: the account and the number its property `callNumberId` names. */
export interface CallFiling {
  accountId: string;
  kind: IntegrationKind;
  /** '' for the account's first active number. */
  callNumberId: string;
}

export const callFilingOf = (accountId: string, kind: IntegrationKind, properties: Readonly<Record<string, unknown>>): CallFiling => ({
  accountId,
  kind,
  callNumberId: typeof properties.callNumberId === 'string' ? properties.callNumberId : '',
});

const callSourceOf = (kind: IntegrationKind): CallSource | null => ((callSources as readonly string[]).includes(kind) ? (kind as CallSource) : null);

/** The active number calls are filed under: the one named, else the account's first; null when it has none. */
export async function filingNumberOf(q: Queryable, filing: CallFiling): Promise<string | null> {
  const named = filing.callNumberId === '' ? [] : [eq(phoneNumbers.id, filing.callNumberId)];
  const [row] = await q
    .select({ id: phoneNumbers.id })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, filing.accountId), eq(phoneNumbers.status, 'active'), ...named))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(1);
  return row?.id ?? null;
}

/** The account's active number written as `e164`, or null (a phone system's number matched to Parley's). */
export async function activeNumberOf(q: Queryable, accountId: string, e164: string): Promise<string | null> {
  if (e164 === '') return null;
  const [row] = await q
    .select({ id: phoneNumbers.id })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.status, 'active'), eq(phoneNumbers.number, e164)))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(1);
  return row?.id ?? null;
}

/** Records the calls in the caller's transaction; answers the rows written (none when the account has no number). */
export async function recordProviderCalls(tx: Tx, filing: CallFiling, calls: readonly ProviderCall[]): Promise<CallRow[]> {
  const source = callSourceOf(filing.kind);
  if (calls.length === 0 || source === null) return [];
  const phoneNumberId = await filingNumberOf(tx, filing);
  if (phoneNumberId === null) return [];
  const rows: CallRow[] = [];
  for (const c of calls) {
    const startedAt = new Date(c.startedAt);
    const { call } = await recordCallIn(tx, {
      accountId: filing.accountId,
      source,
      externalId: c.externalId,
      direction: c.direction,
      status: c.status,
      startedAt: Number.isNaN(startedAt.getTime()) ? new Date() : startedAt,
      durationSeconds: c.durationSeconds,
      from: c.from,
      to: c.to,
      phoneNumberId,
      recordingUrl: c.recordingUrl,
      attributes: c.attributes,
      contactName: c.contactName,
    });
    rows.push(call);
  }
  return rows;
}
