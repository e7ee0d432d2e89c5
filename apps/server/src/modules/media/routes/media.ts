import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, MEDIA_LINK_EXPIRED_MESSAGE, MEDIA_LINK_INVALID_MESSAGE, signedMediaQuerySchema } from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { findAccountMediaFile, findMediaFile } from '../mediaFiles.js';
import { createMediaServices, type MediaServices } from '../services.js';

// Any string: a malformed id is simply not found, like another account's.
const accountFileParams = z.object({ acc: z.uuid(), fileId: z.string() });
const fileParams = z.object({ fileId: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

const MEDIA_NOT_FOUND = 'The media file';

/** What sending a stored file needs of it. */
interface StoredFile {
  key: string;
  size: number;
  filename: string;
  contentType: string;
}

const contentDisposition = (filename: string): string =>
  filename === '' ? 'inline' : `inline; filename*=UTF-8''${encodeURIComponent(filename)}`;

/**
 * Streams a stored file. Stored files never change, so browsers may keep them; the type is the one read from
 * the bytes, and nosniff with a sandbox keeps an inbound file from ever running as a page of this origin.
 */
async function sendFile(media: MediaServices, row: StoredFile, reply: FastifyReply, cacheControl: string): Promise<FastifyReply> {
  const stream = await media.storage.get(row.key);
  if (stream === null) throw notFound(MEDIA_NOT_FOUND);
  return reply
    .header('cache-control', cacheControl)
    .header('content-length', String(row.size))
    .header('content-disposition', contentDisposition(row.filename))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .type(row.contentType)
    .send(stream);
}

/** GET media files: the account's own with a token, and the signed, expiring URL carriers fetch. */
export const mediaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const media = ctx.media ?? createMediaServices(ctx.config);

  app.get(
    '/accounts/:acc/media/:fileId',
    {
      schema: {
        tags: ['media'],
        summary: 'One media file of the account (an upload or an inbound MMS attachment), as its bytes',
        params: accountFileParams,
        response: errors,
      },
      config: { permission: 'account.view' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const row = await findAccountMediaFile(db, accountId, request.params.fileId);
      if (row === null) throw notFound(MEDIA_NOT_FOUND);
      return sendFile(media, row, reply, 'private, max-age=86400, immutable');
    },
  );

  app.get(
    '/media/:fileId',
    {
      schema: {
        tags: ['media'],
        summary: 'A media file by its signed, expiring URL (what carriers fetch for MMS); no token',
        params: fileParams,
        querystring: signedMediaQuerySchema,
        response: errors,
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const { fileId } = request.params;
      const signer = await media.signer(false);
      const expires = request.query.expires === undefined || !/^\d{1,15}$/.test(request.query.expires) ? undefined : Number(request.query.expires);
      const now = new Date();
      const check = signer === null ? 'invalid' : signer.check(fileId, expires, request.query.signature, now);
      if (check === 'expired') throw new AppError(403, 'forbidden', MEDIA_LINK_EXPIRED_MESSAGE);
      if (check === 'invalid') throw new AppError(403, 'forbidden', MEDIA_LINK_INVALID_MESSAGE);
      const row = await findMediaFile(db, fileId);
      if (row === null) throw notFound(MEDIA_NOT_FOUND);
      const left = Math.max(0, (expires ?? 0) - Math.floor(now.getTime() / 1000));
      return sendFile(media, row, reply, `private, max-age=${String(left)}`);
    },
  );
  return Promise.resolve();
};
