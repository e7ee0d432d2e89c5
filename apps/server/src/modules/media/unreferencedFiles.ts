import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Db } from '../../platform/db/client.js';
import { isForeignKeyViolation } from '../../platform/db/sqlErrors.js';
import { mediaFiles } from '../../platform/db/schema/index.js';
import { filesHeldOutsideMessages, findMessageReferences, heldOutsideMessages, NO_UUID } from './mediaReferences.js';
import type { MediaStorage } from './storage.js';

/** A file nothing holds is kept this long after it was stored: an upload about to be sent is never taken. */
export const MEDIA_GRACE_HOURS = 24;

/** Files looked at per statement. */
export const SWEEP_BATCH = 200;

const HOUR_MS = 3_600_000;
/** A message may carry a time a little before its file's (the clocks of several machines): looked for from a day earlier. */
const CLOCK_MARGIN_MS = 24 * HOUR_MS;
/** A message whose transaction was still open while the first look went past it is caught by a second look this far back. */
const SETTLE_MS = HOUR_MS;


export interface UnreferencedSweepOptions {
  log: Logger;
  signal?: AbortSignal;
  graceHours?: number;
  now?: Date;
}

export interface UnreferencedSweepResult {
  /** Files without a known message that were looked at. */
  examined: number;
  /** Files found in a message: the message is written on the row, so they are not looked at again while it exists. */
  linked: number;
  removed: number;
  /** Rows removed whose bytes could not be deleted (the storage sweep takes them later). */
  bytesLeft: number;
}

interface Candidate {
  id: string;
  accountId: string;
  createdAt: Date;
}

/**
 * Removes the media files nothing holds any more, bytes and row, once older than the grace period.
 *
 * `media_files.message_id` names a message known to hold the file: the inbound message it came with, or for
 * an upload the first message found sending it. When that message is removed (by itself, or with its
 * contact, conversation or account) the foreign key turns it to null, so only rows without one are looked
 * at: a template, campaign or campaign execution of the account holding it keeps it; a message holding it
 * is written on the row; a file nothing holds is removed (the row first, then the bytes, so a failure leaves
 * only unnamed bytes, never a row naming missing ones).
 */
export async function removeUnreferencedFiles(db: Db, storage: MediaStorage, options: UnreferencedSweepOptions): Promise<UnreferencedSweepResult> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.graceHours ?? MEDIA_GRACE_HOURS) * HOUR_MS);
  const result: UnreferencedSweepResult = { examined: 0, linked: 0, removed: 0, bytesLeft: 0 };
  let after = { accountId: NO_UUID, id: NO_UUID };
  for (;;) {
    options.signal?.throwIfAborted();
    const batch: Candidate[] = await db
      .select({ id: mediaFiles.id, accountId: mediaFiles.accountId, createdAt: mediaFiles.createdAt })
      .from(mediaFiles)
      .where(
        and(
          // Rows of another storage (the deployment moved) name bytes this one cannot delete: left as they are.
          eq(mediaFiles.storage, storage.kind),
          isNull(mediaFiles.messageId),
          lt(mediaFiles.createdAt, cutoff),
          sql`(${mediaFiles.accountId}, ${mediaFiles.id}) > (${after.accountId}::uuid, ${after.id}::uuid)`,
        ),
      )
      .orderBy(asc(mediaFiles.accountId), asc(mediaFiles.id))
      .limit(SWEEP_BATCH);
    const last = batch.at(-1);
    if (last === undefined) break;
    after = { accountId: last.accountId, id: last.id };
    for (const files of groupByAccount(batch)) await sweepAccountFiles(db, storage, files, options, result);
    if (batch.length < SWEEP_BATCH) break;
  }
  return result;
}

function groupByAccount(batch: readonly Candidate[]): Candidate[][] {
  const groups = new Map<string, Candidate[]>();
  for (const file of batch) groups.set(file.accountId, [...(groups.get(file.accountId) ?? []), file]);
  return [...groups.values()];
}

async function sweepAccountFiles(
  db: Db,
  storage: MediaStorage,
  files: readonly Candidate[],
  options: UnreferencedSweepOptions,
  result: UnreferencedSweepResult,
): Promise<void> {
  const accountId = files[0]?.accountId;
  if (accountId === undefined) return;
  const lookedAt = Date.now();
  result.examined += files.length;
  const held = await heldOutsideMessages(db, accountId, files.map((f) => f.id));
  const open = files.filter((f) => !held.has(f.id));
  if (open.length === 0) return;
  const earliest = Math.min(...open.map((f) => f.createdAt.getTime())) - CLOCK_MARGIN_MS;
  const sent = await findMessageReferences(db, accountId, open.map((f) => f.id), new Date(earliest), { signal: options.signal });
  const unsent = open.filter((f) => !sent.has(f.id)).map((f) => f.id);
  const late = await findMessageReferences(db, accountId, unsent, new Date(lookedAt - SETTLE_MS), { signal: options.signal });
  for (const [fileId, messageId] of [...sent, ...late]) {
    if (await linkMessage(db, fileId, messageId)) result.linked += 1;
  }
  const free = unsent.filter((id) => !late.has(id));
  if (free.length === 0) return;
  options.signal?.throwIfAborted();
  // The row goes only while it still names no message and nothing outside messages holds it, as of now.
  const removed = await queryRows<{ key: string }>(
    db,
    sql`delete from media_files
         where account_id = ${accountId}
           and id in (select (jsonb_array_elements_text(${JSON.stringify(free)}::jsonb))::uuid)
           and message_id is null
           and id::text not in (${filesHeldOutsideMessages(accountId, free)})
        returning key`,
  );
  result.removed += removed.length;
  for (const { key } of removed) {
    try {
      await storage.delete(key);
    } catch (error) {
      result.bytesLeft += 1;
      options.log.warn({ err: error, key }, 'the bytes of a removed media file could not be deleted; the storage sweep retries');
    }
  }
}

/** Writes the message on the row; false when it already names one or the message was removed meanwhile. */
async function linkMessage(db: Db, fileId: string, messageId: string): Promise<boolean> {
  try {
    const linked = await db
      .update(mediaFiles)
      .set({ messageId })
      .where(and(eq(mediaFiles.id, fileId), isNull(mediaFiles.messageId)))
      .returning({ id: mediaFiles.id });
    return linked.length > 0;
  } catch (error) {
    // Looked at again on the next sweep.
    if (isForeignKeyViolation(error)) return false;
    throw error;
  }
}
