import type { FastifyRequest } from 'fastify';

export class UploadRefusedError extends Error {
  constructor(readonly reason: 'tooLarge' | 'notOneFile') {
    super(reason);
    this.name = 'UploadRefusedError';
  }
}

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;

/** Limits busboy reports when more than one file (or much else) came, and a body that is not multipart. */
const notOneFile = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_INVALID_MULTIPART_CONTENT_TYPE']);

/**
 * The one file of a multipart request, read whole (it is at most the route's fileSize limit). Fields are
 * ignored. Refused: a file over the limit, a second file, none, or a body that is not multipart.
 */
export async function readSingleFile(request: FastifyRequest): Promise<{ filename: string; bytes: Buffer }> {
  let found: { filename: string; bytes: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (found !== null) throw new UploadRefusedError('notOneFile');
      found = { filename: part.filename, bytes: await part.toBuffer() };
    }
  } catch (error) {
    if (error instanceof UploadRefusedError) throw error;
    const code = codeOf(error);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new UploadRefusedError('tooLarge');
    if (code !== undefined && notOneFile.has(code)) throw new UploadRefusedError('notOneFile');
    throw error;
  }
  if (found === null) throw new UploadRefusedError('notOneFile');
  return found;
}
