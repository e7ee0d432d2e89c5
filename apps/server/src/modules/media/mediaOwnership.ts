import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { mediaFiles } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import { accountMediaReference } from './urls.js';

/** The 404 of a send (or a template, or a campaign) naming a media file that is not the account's. */
export const MEDIA_FILE_NOT_FOUND = 'The media file';

/**
 * The rule of a send's media (docs/media.md#whose-media-a-send-may-carry): every account media URL in it
 * must name a file of the sending account. Another account's file, under its own account's address or
 * forged under ours, and an id that is no file of the account answer 404, as another account's records do,
 * and the caller's transaction writes nothing. Other URLs (a picture elsewhere on the web) pass.
 */
export async function requireOwnMedia(q: Queryable, accountId: string, media: readonly { url: string }[]): Promise<void> {
  const account = accountId.toLowerCase();
  const files = new Set<string>();
  for (const item of media) {
    const reference = accountMediaReference(item.url);
    if (reference === null) continue;
    if (reference.accountId !== account) throw notFound(MEDIA_FILE_NOT_FOUND);
    files.add(reference.fileId);
  }
  if (files.size === 0) return;
  const owned = await q
    .select({ id: mediaFiles.id })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.accountId, account), inArray(mediaFiles.id, [...files])));
  if (owned.length !== files.size) throw notFound(MEDIA_FILE_NOT_FOUND);
}
