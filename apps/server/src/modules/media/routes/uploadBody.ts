import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIA_UPLOAD_MAX_BYTES, MEDIA_UPLOAD_ONE_FILE_MESSAGE, MEDIA_UPLOAD_TOO_LARGE_MESSAGE } from '@parley/shared';
import { AppError } from '../../../platform/errors.js';
import type { UploadedFile } from '../shareFile.js';
import { readSingleFile, UploadRefusedError } from './singleFile.js';

const tooLarge = (): AppError => new AppError(413, 'payload_too_large', MEDIA_UPLOAD_TOO_LARGE_MESSAGE);

/** The bytes of a raw body, refused as soon as they pass the upload limit (nothing more is kept). */
async function readLimited(payload: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += chunk.length;
    if (size > MEDIA_UPLOAD_MAX_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Lets the upload routes (and only them: the plugin is encapsulated) take the file as a raw
 * `application/octet-stream` body, as the hosted product's API documents beside multipart.
 */
export function acceptRawUploads(app: FastifyInstance): void {
  app.addContentTypeParser('application/octet-stream', async (_request: FastifyRequest, payload: AsyncIterable<Buffer>) => readLimited(payload));
}

/**
 * The one file of an upload: a raw body, or the one file of a multipart body (any field name: the web app
 * says `file`, the hosted product's API `media`). 413 over 1024 kB; 400 for none, two, or another body.
 */
export async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (Buffer.isBuffer(request.body)) {
    if (request.body.length === 0) throw new AppError(400, 'bad_request', MEDIA_UPLOAD_ONE_FILE_MESSAGE);
    return { filename: '', bytes: request.body };
  }
  try {
    return await readSingleFile(request);
  } catch (error) {
    if (!(error instanceof UploadRefusedError)) throw error;
    throw error.reason === 'tooLarge' ? tooLarge() : new AppError(400, 'bad_request', MEDIA_UPLOAD_ONE_FILE_MESSAGE);
  }
}
