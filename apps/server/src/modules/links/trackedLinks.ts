import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { SHORT_CODE_LENGTH } from '@parley/shared';
import { arrayLiteral, queryRows, type Tx } from '../../platform/db/client.js';
import { links } from '../../platform/db/schema/index.js';
import { newShortCode } from './shortCodes.js';

/**
 * A short URL in a message's text: `https://{host}/{code}` or `{PUBLIC_URL}/r/{code}`, PUBLIC_URL with a
 * path or not (`https://example.com/sms/r/{code}` behind a proxy that serves Parley under /sms). The code
 * is captured; what follows must not be another code character.
 */
const SHORT_URL = new RegExp(`(https?://[^\\s/?#]+(?:(?:/[^\\s/?#]+)*/r)?/)([0-9A-Za-z]{${String(SHORT_CODE_LENGTH)}})(?![0-9A-Za-z])`, 'g');

/** What each message's body needs: its text (with codes in it) and whose it is. */
export interface TrackableMessage {
  body: string;
  recipient: { contact: { id: string } };
}

/** A recipient's code, waiting for its message's id. */
interface PendingCode {
  index: number;
  linkId: string;
  contactId: string;
  code: string;
}

export interface PersonalizedMessages<T extends TrackableMessage> {
  /** The messages in their order, each tracked link's URL carrying the recipient's own code. */
  messages: T[];
  /** Codes to record once the messages have ids (recordRecipientCodes). */
  pending: readonly PendingCode[];
}

/** The codes of the short URLs in a text. */
export const codesIn = (text: string): string[] => [...text.matchAll(SHORT_URL)].map((m) => m[2] ?? '');

/** The account's links with contact tracking among these codes: code -> link id. */
async function trackedLinksOf(tx: Tx, accountId: string, codes: readonly string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await tx
    .select({ id: links.id, code: links.code })
    .from(links)
    .where(and(eq(links.accountId, accountId), eq(links.contactTracking, true), inArray(links.code, [...codes])));
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Codes among these already used by a link or a recipient (a clash is about one in 10^12 draws). */
async function takenCodes(tx: Tx, codes: readonly string[]): Promise<Set<string>> {
  const rows = await queryRows<{ code: string }>(
    tx,
    sql`select code from links where code = any(${arrayLiteral(codes)}::text[])
        union all select code from link_recipients where code = any(${arrayLiteral(codes)}::text[])`,
  );
  return new Set(rows.map((r) => r.code));
}

/** `count` new codes, none of them in use and none twice. */
async function freshCodes(tx: Tx, count: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < count) {
    const drawn: string[] = [];
    while (codes.size + drawn.length < count) drawn.push(newShortCode());
    const taken = await takenCodes(tx, drawn);
    for (const code of drawn) if (!taken.has(code)) codes.add(code);
  }
  return [...codes];
}

/**
 * Gives each recipient its own code for every tracked link in its message (docs/links.md, "Contact
 * tracking"): the account's links with contact tracking, found by their short URL in the text. The new
 * code has the link's length, so the text keeps its length, segments and price. Two queries for the whole
 * batch (the links, the clash check); nothing is written until recordRecipientCodes.
 */
export async function personalizeTrackedLinks<T extends TrackableMessage>(
  tx: Tx,
  accountId: string,
  messages: readonly T[],
): Promise<PersonalizedMessages<T>> {
  const seen = new Set<string>();
  for (const m of messages) for (const code of codesIn(m.body)) seen.add(code);
  const tracked = await trackedLinksOf(tx, accountId, [...seen]);
  if (tracked.size === 0) return { messages: [...messages], pending: [] };

  const needs = messages.map((m) => [...new Set(codesIn(m.body).filter((c) => tracked.has(c)))]);
  const codes = await freshCodes(tx, needs.reduce((n, list) => n + list.length, 0));
  const pending: PendingCode[] = [];
  const out = messages.map((m, index) => {
    const own = new Map<string, string>();
    for (const linkCode of needs[index] ?? []) {
      const code = codes[pending.length];
      const linkId = tracked.get(linkCode);
      if (code === undefined || linkId === undefined) throw new Error('a tracked link without its code');
      own.set(linkCode, code);
      pending.push({ index, linkId, contactId: m.recipient.contact.id, code });
    }
    if (own.size === 0) return m;
    const body = m.body.replace(SHORT_URL, (url, prefix: string, code: string) => {
      const mine = own.get(code);
      return mine === undefined ? url : `${prefix}${mine}`;
    });
    return { ...m, body };
  });
  return { messages: out, pending };
}

/** Writes the recipients' codes of a batch in one statement, now that their messages (in order) have ids. */
export async function recordRecipientCodes(
  tx: Tx,
  accountId: string,
  pending: readonly PendingCode[],
  messageIds: readonly string[],
  now: Date,
): Promise<void> {
  if (pending.length === 0) return;
  const ids = pending.map(() => uuidv7());
  const messageOf = pending.map((p) => {
    const id = messageIds[p.index];
    if (id === undefined) throw new Error('a recipient code without its message');
    return id;
  });
  await tx.execute(
    sql`insert into link_recipients (id, account_id, link_id, contact_id, message_id, code, created_at)
        select v.id, ${accountId}, v.link_id, v.contact_id, v.message_id, v.code, ${now.toISOString()}::timestamptz
          from unnest(${arrayLiteral(ids)}::uuid[], ${arrayLiteral(pending.map((p) => p.linkId))}::uuid[],
                      ${arrayLiteral(pending.map((p) => p.contactId))}::uuid[], ${arrayLiteral(messageOf)}::uuid[],
                      ${arrayLiteral(pending.map((p) => p.code))}::text[]) as v(id, link_id, contact_id, message_id, code)`,
  );
}
