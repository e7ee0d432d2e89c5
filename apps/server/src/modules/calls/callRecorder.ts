import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { CALL_RECORDED_EVENT, normaliseContactMobile, type CallDirection, type CallRecordedEventData, type CallSource, type CallStatus } from '@parley/shared';
import { queryRows, type Db, type Tx } from '../../platform/db/client.js';
import { calls, phoneNumbers, type CallRow } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { findOrAddContactsByMobile } from '../contacts/index.js';
import { openConversations } from '../messaging/index.js';
import { presentCall } from './callPresenter.js';

/** A call as a source reports it (a webhook or a sync page). */
export interface CallReport {
  accountId: string;
  source: CallSource;
  externalId: string;
  direction: CallDirection;
  status: CallStatus;
  startedAt: Date;
  durationSeconds: number;
  /** Who called and who was called, as the source writes them. */
  from: string;
  to: string;
  /** The account's number the call is filed under: the conversation is the contact's on this number. */
  phoneNumberId: string;
  recordingUrl?: string | null;
  attributes?: Readonly<Record<string, string>>;
  /** The caller's name, for a contact the call creates. */
  contactName?: { firstName: string; lastName: string };
}

export interface RecordedCall {
  call: CallRow;
  /** False when an earlier report of the same call was updated. */
  created: boolean;
}

export const CALL_NUMBER_NOT_FOUND = 'The phone number';

/** A recording's address as the inbox links it: http(s) only, never a script or data URL a source sent. */
const webUrlOrNull = (url: string | null | undefined): string | null => (url !== null && url !== undefined && /^https?:\/\//i.test(url) ? url : null);

interface NumberOfAccount extends Record<string, unknown> {
  id: string;
  number: string;
  country: string;
  group_id: string | null;
}

/** The account's number and the group holding it (the oldest, as for an inbound message). */
async function numberOf(tx: Tx, accountId: string, phoneNumberId: string): Promise<NumberOfAccount> {
  const [row] = await queryRows<NumberOfAccount>(
    tx,
    sql`select p.id, p.number, p.country,
               (select g.id from group_phone_numbers gp join groups g on g.id = gp.group_id
                 where gp.phone_number_id = p.id and g.account_id = p.account_id
                 order by g.created_at, g.id limit 1) as group_id
          from ${phoneNumbers} p where p.account_id = ${accountId} and p.id = ${phoneNumberId}`,
  );
  if (row === undefined) throw notFound(CALL_NUMBER_NOT_FOUND);
  return row;
}

/** The conversation an earlier report of the call is in, or null when none came before. */
async function earlierConversation(tx: Tx, report: CallReport): Promise<string | null> {
  const [row] = await tx
    .select({ conversationId: calls.conversationId })
    .from(calls)
    .where(and(eq(calls.accountId, report.accountId), eq(calls.source, report.source), eq(calls.externalId, report.externalId)));
  return row?.conversationId ?? null;
}

/**
 * Writes a call into the contact's conversation, in the caller's transaction (docs/calls.md): the contact is
 * found or created by the other party's number (normalised as every contact's), the conversation is the
 * contact's open one on the account's number (opened when none). A second report of the same call (source
 * and external id) updates its status, duration, recording and attributes instead of adding a row; a report
 * still in progress never takes back an ended call's status. A `callRecorded` event tells the inbox.
 */
export async function recordCallIn(tx: Tx, report: CallReport): Promise<RecordedCall> {
  const number = await numberOf(tx, report.accountId, report.phoneNumberId);
  // Numbers as Parley writes them (E.164), so one caller is one contact and one text-back window.
  const from = normaliseContactMobile(report.from, null, number.country).number;
  const to = normaliseContactMobile(report.to, null, number.country).number;
  const other = report.direction === 'inbound' ? from : to;
  const [contactId = ''] = await findOrAddContactsByMobile(tx, report.accountId, [
    { mobile: { number: other, country: undefined }, firstName: report.contactName?.firstName ?? '', lastName: report.contactName?.lastName ?? '' },
  ]);
  let conversationId = await earlierConversation(tx, report);
  if (conversationId === null) {
    const opened = await openConversations(tx, report.accountId, [{ contactId, phoneNumberId: number.id, phoneNumber: number.number, groupId: number.group_id }]);
    conversationId = [...opened.values()][0]?.id ?? null;
  }
  if (conversationId === null) throw new Error('no conversation opened for the call');
  const now = new Date();
  const attributes = report.attributes ?? {};
  const [row] = await tx
    .insert(calls)
    .values({
      id: uuidv7(),
      accountId: report.accountId,
      conversationId,
      contactId,
      phoneNumberId: number.id,
      direction: report.direction,
      status: report.status,
      startedAt: report.startedAt,
      durationSeconds: Math.max(0, Math.round(report.durationSeconds)),
      source: report.source,
      externalId: report.externalId,
      fromNumber: from,
      toNumber: to,
      recordingUrl: webUrlOrNull(report.recordingUrl),
      attributes,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [calls.accountId, calls.source, calls.externalId],
      set: {
        status: sql`case when excluded.status = 'inProgress' then ${calls.status} else excluded.status end`,
        durationSeconds: sql`greatest(${calls.durationSeconds}, excluded.duration_seconds)`,
        recordingUrl: sql`coalesce(excluded.recording_url, ${calls.recordingUrl})`,
        attributes: sql`${calls.attributes} || excluded.attributes`,
        updatedAt: now,
      },
    })
    .returning({ id: calls.id, created: sql<boolean>`(xmax = 0)` });
  if (row === undefined) throw new Error('call neither inserted nor updated');
  const [call] = await tx.select().from(calls).where(and(eq(calls.accountId, report.accountId), eq(calls.id, row.id)));
  if (call === undefined) throw new Error('call not found after its write');
  const data: CallRecordedEventData = { call: presentCall(call), conversation: { id: call.conversationId } };
  await publishEvent(tx, { type: CALL_RECORDED_EVENT, accountId: report.accountId, data });
  return { call, created: row.created };
}

/** recordCallIn in a transaction of its own. */
export function recordCall(db: Db, report: CallReport): Promise<RecordedCall> {
  return db.transaction((tx) => recordCallIn(tx, report));
}
