import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { SharedFile } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { mediaFiles, type MediaFileRow } from '../../platform/db/schema/index.js';
import type { MediaServices } from './services.js';
import { mediaKey } from './storage.js';
import { accountMediaUrl } from './urls.js';
import { isUuid } from '../../platform/db/ids.js';


export interface NewMediaFile {
  accountId: string;
  contentType: string;
  filename: string;
  bytes: Buffer;
  width: number | null;
  height: number | null;
  source: MediaFileRow['source'];
  messageId?: string | null;
  createdByUserId?: string | null;
}

/**
 * Stores the bytes, then writes the row. The bytes go first: a row never names bytes that are not there;
 * a crash in between leaves an unnamed object, which is only space.
 */
export async function storeMediaFile(q: Queryable, media: MediaServices, file: NewMediaFile): Promise<MediaFileRow> {
  const id = uuidv7();
  const key = mediaKey(file.accountId, id);
  await media.storage.put(key, file.bytes, file.contentType);
  try {
    const [row] = await q
      .insert(mediaFiles)
      .values({
        id,
        accountId: file.accountId,
        storage: media.storage.kind,
        key,
        contentType: file.contentType,
        filename: file.filename,
        size: file.bytes.length,
        width: file.width,
        height: file.height,
        source: file.source,
        messageId: file.messageId ?? null,
        createdByUserId: file.createdByUserId ?? null,
      })
      .returning();
    if (!row) throw new Error('the media_files insert returned no row');
    return row;
  } catch (error) {
    await media.storage.delete(key).catch(() => undefined);
    throw error;
  }
}

/** A file of the account; null for another account's or an id that is not one. */
export async function findAccountMediaFile(q: Queryable, accountId: string, fileId: string): Promise<MediaFileRow | null> {
  if (!isUuid(fileId)) return null;
  const [row] = await q
    .select()
    .from(mediaFiles)
    .where(and(eq(mediaFiles.accountId, accountId), eq(mediaFiles.id, fileId)));
  return row ?? null;
}

/** A file by id alone: for the signed URL, whose signature names the file. */
export async function findMediaFile(q: Queryable, fileId: string): Promise<MediaFileRow | null> {
  if (!isUuid(fileId)) return null;
  const [row] = await q.select().from(mediaFiles).where(eq(mediaFiles.id, fileId));
  return row ?? null;
}

/** The account a file belongs to; null when there is no such file. */
export async function mediaFileAccount(q: Queryable, fileId: string): Promise<string | null> {
  if (!isUuid(fileId)) return null;
  const [row] = await q.select({ accountId: mediaFiles.accountId }).from(mediaFiles).where(eq(mediaFiles.id, fileId));
  return row?.accountId ?? null;
}

/** The answer of tools/sharefile. */
export const presentSharedFile = (publicUrl: string, row: MediaFileRow): SharedFile => ({
  id: row.id,
  link: accountMediaUrl(publicUrl, row.accountId, row.id),
  type: row.contentType,
  filename: row.filename,
  width: row.width,
  height: row.height,
  size: row.size,
});
