import { buffer } from 'node:stream/consumers';
import type { Queryable } from '../../platform/db/client.js';
import { findAccountMediaFile } from './mediaFiles.js';
import type { MediaServices } from './services.js';

/** A stored picture as a still PNG, ready to draw into another picture (the screenshot generator). */
export interface DrawablePicture {
  png: Buffer;
  width: number;
  height: number;
}

const MAX_INPUT_PIXELS = 100_000_000;
/** What is read of a file to draw it: uploads are at most 1024 kB, inbound attachments 5 MB. */
const MAX_STORED_BYTES = 6 * 1024 * 1024;

/**
 * One of the account's stored pictures, its first frame turned upright and fitted within `maxEdge` pixels
 * (never enlarged), as PNG; null when the account has no such file or it is not a picture sharp can read.
 * Only files the account stored are drawn: nothing is ever fetched from an address (docs/tools.md).
 */
export async function drawablePicture(q: Queryable, media: MediaServices, accountId: string, fileId: string, maxEdge: number): Promise<DrawablePicture | null> {
  const row = await findAccountMediaFile(q, accountId, fileId);
  if (row === null || !row.contentType.startsWith('image/') || row.size > MAX_STORED_BYTES) return null;
  const stream = await media.storage.get(row.key);
  if (stream === null) return null;
  const bytes = await buffer(stream);
  const sharp = (await import('sharp')).default;
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 })
      .autoOrient()
      .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    // Stored bytes that do not decode (an inbound attachment of another image type) are drawn as a placeholder.
    return null;
  }
}
