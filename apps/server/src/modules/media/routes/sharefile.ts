import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contractShareFileQuerySchema,
  errorBodySchema,
  MEDIA_UPLOAD_MAX_BYTES,
  shareFileContractResponseSchema,
  shareFileQuerySchema,
  sharedFileResponseSchema,
  type SharedFile,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { presentSharedFile } from '../mediaFiles.js';
import { createMediaServices } from '../services.js';
import { shareFile } from '../shareFile.js';
import { acceptRawUploads, readUpload } from './uploadBody.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 413: errorBodySchema };

const uploadDescription =
  'JPEG, PNG, GIF or WebP, at most 1024 kB, as `multipart/form-data` (one file, in a field of whichever name) or as a raw ' +
  '`application/octet-stream` body; the type is read from the bytes, not from the name. The picture is turned ' +
  'upright, stripped of its metadata and, with `resize`, fitted within resize x resize pixels (the web app asks ' +
  'for 500). `link` is the account media URL to put in a message’s media.';

/**
 * POST tools/sharefile (docs/media.md): one picture, at most 1024 kB, checked by its bytes, resized and stored;
 * the answer holds the link a message's media takes. Two routes run the one command: the account's, which the
 * web app calls, and the hosted product's `/v1/tools/sharefile`, whose account comes from the token. multipart
 * and raw bodies are registered here only, with those limits, so no other route takes them.
 */
export const toolRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const media = ctx.media ?? createMediaServices(ctx.config);
  await app.register(multipart, {
    // One byte over the limit is enough to know it is too large; busboy stops reading there.
    limits: { fileSize: MEDIA_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 1024 },
  });
  acceptRawUploads(app);

  /** The upload of either route, stored in the guard's account. */
  const share = async (request: FastifyRequest, resize: number | undefined): Promise<SharedFile> => {
    const { accountId } = membershipOf(request);
    const principal = principalOf(request);
    const row = await shareFile(ctx.database.db, media, {
      accountId,
      // An API client has no user row; the file is the account's either way.
      createdByUserId: principal.clientId === undefined ? principal.userId : null,
      file: await readUpload(request),
      resize,
    });
    return presentSharedFile(ctx.config.publicUrl, row);
  };

  app.post(
    '/accounts/:acc/tools/sharefile',
    {
      schema: {
        tags: ['media'],
        summary: 'Upload one picture for a message',
        description: uploadDescription,
        querystring: shareFileQuerySchema,
        params: accountParams,
        response: { 201: sharedFileResponseSchema, ...errors },
      },
      config: { permission: 'media.upload' },
    },
    async (request, reply) => reply.code(201).send({ data: await share(request, request.query.resize) }),
  );

  app.post(
    '/tools/sharefile',
    {
      schema: {
        tags: ['media'],
        summary: "Upload one picture for a message: the hosted API's path, in the token's account",
        description:
          `${uploadDescription} The account is the token's (an API client's own); a person in several accounts ` +
          'names one with `accountId`. Answers 200 `{success: true, data: {link, ...}}`, the hosted API’s ShareFileResponse.',
        querystring: contractShareFileQuerySchema,
        response: { 200: shareFileContractResponseSchema, ...errors },
      },
      config: { permission: 'media.upload', accountFrom: 'token' },
    },
    async (request) => ({ success: true as const, data: await share(request, request.query.resize) }),
  );
};
