import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  MEDIA_UPLOAD_MAX_BYTES,
  MEDIA_UPLOAD_ONE_FILE_MESSAGE,
  MEDIA_UPLOAD_TOO_LARGE_MESSAGE,
  shareFileQuerySchema,
  sharedFileResponseSchema,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { NotAnAcceptedImageError, processImage } from '../images.js';
import { presentSharedFile, storeMediaFile } from '../mediaFiles.js';
import { createMediaServices } from '../services.js';
import { uploadFilename } from '../filenames.js';
import { readSingleFile, UploadRefusedError } from './singleFile.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 413: errorBodySchema };

/**
 * POST tools/sharefile (docs/media.md): one picture, at most 1024 kB, checked by its bytes, resized and stored;
 * the answer holds the link a message's media takes. multipart is registered here only, with those limits,
 * so no other route takes multipart bodies.
 */
export const toolRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const media = ctx.media ?? createMediaServices(ctx.config);
  await app.register(multipart, {
    // One byte over the limit is enough to know it is too large; busboy stops reading there.
    limits: { fileSize: MEDIA_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 1024 },
  });

  app.post(
    '/accounts/:acc/tools/sharefile',
    {
      schema: {
        tags: ['media'],
        summary: 'Upload one picture for a message (multipart/form-data, field `file`)',
        description:
          'JPEG, PNG, GIF or WebP, at most 1024 kB; the type is read from the bytes, not from the name. The ' +
          'picture is turned upright, stripped of its metadata and, with `resize`, fitted within resize x resize ' +
          'pixels (the web app asks for 500). `link` is the account media URL to put in a message’s media.',
        querystring: shareFileQuerySchema,
        params: accountParams,
        response: { 201: sharedFileResponseSchema, ...errors },
      },
      config: { permission: 'media.upload' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      let file;
      try {
        file = await readSingleFile(request);
      } catch (error) {
        if (!(error instanceof UploadRefusedError)) throw error;
        throw error.reason === 'tooLarge'
          ? new AppError(413, 'payload_too_large', MEDIA_UPLOAD_TOO_LARGE_MESSAGE)
          : new AppError(400, 'bad_request', MEDIA_UPLOAD_ONE_FILE_MESSAGE);
      }
      let image;
      try {
        image = await processImage(file.bytes, request.query.resize);
      } catch (error) {
        if (error instanceof NotAnAcceptedImageError) throw new AppError(400, 'bad_request', error.message);
        throw error;
      }
      const row = await storeMediaFile(ctx.database.db, media, {
        accountId,
        contentType: image.contentType,
        filename: uploadFilename(file.filename, image.contentType),
        bytes: image.bytes,
        width: image.width,
        height: image.height,
        source: 'upload',
        // An API client has no user row; the file is the account's either way.
        createdByUserId: principal.clientId === undefined ? principal.userId : null,
      });
      return reply.code(201).send({ data: presentSharedFile(ctx.config.publicUrl, row) });
    },
  );
};
