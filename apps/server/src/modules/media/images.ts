import type { OutputInfo } from 'sharp';
import { MEDIA_UPLOAD_TYPE_MESSAGE, type MediaUploadType } from '@parley/shared';

/** An upload whose bytes are not one of the accepted image types, whatever its name or header said. */
export class NotAnAcceptedImageError extends Error {
  constructor() {
    super(MEDIA_UPLOAD_TYPE_MESSAGE);
    this.name = 'NotAnAcceptedImageError';
  }
}

export interface ProcessedImage {
  bytes: Buffer;
  contentType: MediaUploadType;
  /** Of one frame. */
  width: number;
  height: number;
}

const formats = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' } as const satisfies Record<string, MediaUploadType>;
type Format = keyof typeof formats;

const isFormat = (format: string | undefined): format is Format => format !== undefined && format in formats;

/** sharp and its native library load with the first image, not with every importer of media (the CLI). */
const loadSharp = async () => (await import('sharp')).default;

/** Enough for any phone photo; a decompression bomb (a tiny file that decodes to gigapixels) is refused. */
const MAX_INPUT_PIXELS = 100_000_000;

/** The type the bytes are, by their content (sharp reads the header); null when not an accepted image. */
export async function sniffImageType(input: Buffer): Promise<MediaUploadType | null> {
  const sharp = await loadSharp();
  try {
    const { format } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    return isFormat(format) ? formats[format] : null;
  } catch {
    return null;
  }
}

/**
 * An uploaded picture made ready to send: its type taken from the bytes, turned upright by its EXIF
 * orientation, fitted within `resize` x `resize` pixels when given (aspect kept, never enlarged), and stored
 * in the same format without its metadata (a phone photo's EXIF carries the place it was taken). An animated
 * GIF or WebP stays animated.
 */
export async function processImage(input: Buffer, resize: number | undefined): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  let format: Format;
  let pages: number;
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!isFormat(meta.format)) throw new NotAnAcceptedImageError();
    format = meta.format;
    pages = meta.pages ?? 1;
  } catch (error) {
    if (error instanceof NotAnAcceptedImageError) throw error;
    throw new NotAnAcceptedImageError();
  }
  const animated = pages > 1 && (format === 'gif' || format === 'webp');
  let pipeline = sharp(input, { animated, limitInputPixels: MAX_INPUT_PIXELS }).autoOrient();
  if (resize !== undefined) pipeline = pipeline.resize({ width: resize, height: resize, fit: 'inside', withoutEnlargement: true });
  switch (format) {
    case 'jpeg':
      pipeline = pipeline.jpeg({ quality: 85, mozjpeg: true });
      break;
    case 'png':
      pipeline = pipeline.png({ compressionLevel: 9 });
      break;
    case 'gif':
      pipeline = pipeline.gif();
      break;
    case 'webp':
      pipeline = pipeline.webp({ quality: 85 });
      break;
  }
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await pipeline.toBuffer({ resolveWithObject: true });
  } catch {
    // A header that looks right over a body that does not decode.
    throw new NotAnAcceptedImageError();
  }
  const { data, info } = output;
  return { bytes: data, contentType: formats[format], width: info.width, height: info.pageHeight ?? info.height };
}
