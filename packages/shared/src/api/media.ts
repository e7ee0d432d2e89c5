import { z } from 'zod';
import { recordResponse } from './pagination.js';

// Media uploads and serving (docs/media.md; tools/sharefile).

/** Media upload: one file, image types only, max 1024 kB (docs/media.md). */
export const MEDIA_UPLOAD_MAX_BYTES = 1024 * 1024;
export const MEDIA_UPLOAD_MAX_KB = MEDIA_UPLOAD_MAX_BYTES / 1024;

/**
 * The image types an upload may be: what carriers take for MMS and every browser shows. The server
 * decides the type from the bytes, never from the name or the header.
 */
export const mediaUploadTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type MediaUploadType = (typeof mediaUploadTypes)[number];

/** What the file chooser offers (the accept attribute). */
export const MEDIA_UPLOAD_ACCEPT = mediaUploadTypes.join(',');

/** A rejection states the max size and accepted type. */
export const MEDIA_UPLOAD_TOO_LARGE_MESSAGE = `The file is larger than the maximum size of ${MEDIA_UPLOAD_MAX_KB} kB`;
export const MEDIA_UPLOAD_TYPE_MESSAGE = 'The file must be an image: JPEG, PNG, GIF or WebP';
export const MEDIA_UPLOAD_ONE_FILE_MESSAGE = 'Upload exactly one file';
/** The toast of a failed upload. */
export const MEDIA_UPLOAD_FAILED_TOAST = 'Unable to upload file';

export const isMediaUploadType = (type: string): type is MediaUploadType =>
  (mediaUploadTypes as readonly string[]).includes(type.toLowerCase());

/**
 * The check the browser runs before it uploads, with the server's messages; null when the file may go.
 * The server checks again from the bytes.
 */
export const mediaUploadProblem = (file: { size: number; type: string }): string | null => {
  if (!isMediaUploadType(file.type)) return MEDIA_UPLOAD_TYPE_MESSAGE;
  if (file.size > MEDIA_UPLOAD_MAX_BYTES) return MEDIA_UPLOAD_TOO_LARGE_MESSAGE;
  return null;
};

/** A shared file is resized to 500 (the longest side, in pixels). */
export const MEDIA_RESIZE_DEFAULT = 500;
export const MEDIA_RESIZE_MAX = 2000;

/** The query of POST tools/sharefile: the box the image is fitted into; without it the image keeps its size. */
export const shareFileQuerySchema = z.object({
  resize: z.coerce
    .number({ message: 'Must be a number' })
    .int({ message: 'Must be a whole number' })
    .min(1, { message: `Between 1 and ${MEDIA_RESIZE_MAX}` })
    .max(MEDIA_RESIZE_MAX, { message: `Between 1 and ${MEDIA_RESIZE_MAX}` })
    .optional(),
});

export type ShareFileQuery = z.infer<typeof shareFileQuerySchema>;

/**
 * The answer of POST tools/sharefile (the response holds `link`). `link` is the account media URL
 * that a message's media takes; it needs the user's token (carriers get a signed copy when sending).
 */
export const sharedFileSchema = z
  .object({
    id: z.uuid(),
    link: z.string(),
    type: z.string(),
    filename: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    size: z.number().int(),
  })
  .meta({ id: 'SharedFile' });

export type SharedFile = z.infer<typeof sharedFileSchema>;

export const sharedFileResponseSchema = recordResponse(sharedFileSchema);

/**
 * POST /v1/tools/sharefile, the hosted product's path: the same query, and the account when the token
 * reaches several (docs/api.md, "Which account").
 */
export const contractShareFileQuerySchema = shareFileQuerySchema.extend({ accountId: z.uuid().optional() });

/**
 * Its answer, the contract's ShareFileResponse: `{success, data: {link}}`, the same file as the account's
 * route answers. No `expires`: the link does not expire (carriers get signed copies of their own).
 */
export const shareFileContractResponseSchema = z
  .object({ success: z.literal(true), data: sharedFileSchema })
  .meta({ id: 'ShareFileResponse' });

export type ShareFileContractResponse = z.infer<typeof shareFileContractResponseSchema>;

/** The query of the public, signed media URL given to carriers. */
export const signedMediaQuerySchema = z.object({
  // Strings: a malformed value is a link that does not work (403), not a validation error.
  expires: z.string().max(20).optional(),
  signature: z.string().max(200).optional(),
});

export const MEDIA_LINK_INVALID_MESSAGE = 'This media link is not valid.';
export const MEDIA_LINK_EXPIRED_MESSAGE = 'This media link has expired.';

/** How long a signed media URL stays valid: long enough for a carrier to fetch it after submit. */
export const MEDIA_SIGNED_URL_TTL_SECONDS = 60 * 60;

/** A chip's name is truncated at 20 characters. */
export const MEDIA_CHIP_NAME_MAX = 20;

/** A chip's label: the name cut at 20 characters (with an ellipsis, so a cut name reads as cut). */
export const mediaChipName = (name: string): string =>
  name.length > MEDIA_CHIP_NAME_MAX ? `${name.slice(0, MEDIA_CHIP_NAME_MAX)}…` : name;
