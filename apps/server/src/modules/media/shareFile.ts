import type { Queryable } from '../../platform/db/client.js';
import type { MediaFileRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { uploadFilename } from './filenames.js';
import { NotAnAcceptedImageError, processImage } from './images.js';
import { storeMediaFile } from './mediaFiles.js';
import type { MediaServices } from './services.js';

/** A file as it came in: its name as sent ('' for a raw body) and its bytes. */
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export interface ShareFileInput {
  accountId: string;
  /** The person who uploaded it; null for an API client, which has no user row (the file is the account's either way). */
  createdByUserId: string | null;
  file: UploadedFile;
  /** Fit within resize x resize pixels; the size is kept without it. */
  resize?: number | undefined;
}

/**
 * POST tools/sharefile, by either of its routes (docs/media.md): the picture checked by its bytes, turned
 * upright, stripped of its metadata, fitted within `resize`, and stored as the account's upload.
 * 400 when it is not a JPEG, PNG, GIF or WebP picture.
 */
export async function shareFile(q: Queryable, media: MediaServices, input: ShareFileInput): Promise<MediaFileRow> {
  let image;
  try {
    image = await processImage(input.file.bytes, input.resize);
  } catch (error) {
    if (error instanceof NotAnAcceptedImageError) throw new AppError(400, 'bad_request', error.message);
    throw error;
  }
  return storeMediaFile(q, media, {
    accountId: input.accountId,
    contentType: image.contentType,
    filename: uploadFilename(input.file.filename, image.contentType),
    bytes: image.bytes,
    width: image.width,
    height: image.height,
    source: 'upload',
    createdByUserId: input.createdByUserId,
  });
}
