import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/index.js';
import { AppError } from '../errors.js';
import { defineJob } from '../jobs/queue.js';

/*
 * `Idempotency-Key` on the API's POSTs (docs/api.md, "Retries"): a client that retries after a timeout sends
 * the same key, and gets the first answer again instead of a second send, contact or campaign.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key and its answer are kept. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** A request that held its key this long without answering died with its process: a retry may take the key. */
export const IDEMPOTENCY_ABANDONED_SECONDS = 120;

export const IDEMPOTENCY_KEY_INVALID_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters.';
export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was used with a different request.';
export const IDEMPOTENCY_KEY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still being answered. Try again in a moment.';

const keySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/);

interface HeldKey {
  accountId: string;
  callerId: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: HeldKey | null;
  }
  interface FastifyContextConfig {
    /**
     * The route keeps its own Idempotency-Key where its work is done (the top-up's ledger credit, for good,
     * answering `duplicate: true`); these hooks leave it alone.
     */
    ownIdempotencyKey?: true;
  }
}

/** The request's fingerprint: method, route and body as the schema read it. */
function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Takes the key for this request, answers a retry from the kept answer, or refuses: the key used with another
 * request (409), or held by a request still being answered (409). A key held by a request that died long ago
 * goes to this one: a send it may have made is refused by the ledger's charge key (docs/api.md).
 */
async function holdOrReplay(database: Database, request: FastifyRequest, reply: FastifyReply, held: HeldKey): Promise<boolean> {
  const requestHash = fingerprint(request);
  const db = database.db;
  const [taken] = await db
    .insert(idempotencyKeys)
    .values({ ...held, requestHash })
    .onConflictDoUpdate({
      target: [idempotencyKeys.accountId, idempotencyKeys.callerId, idempotencyKeys.key],
      set: { startedAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.status} is null and ${idempotencyKeys.requestHash} = ${requestHash}
        and ${idempotencyKeys.startedAt} < now() - make_interval(secs => ${IDEMPOTENCY_ABANDONED_SECONDS})`,
    })
    .returning({ key: idempotencyKeys.key });
  if (taken) return true;
  const [kept] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, held.accountId), eq(idempotencyKeys.callerId, held.callerId), eq(idempotencyKeys.key, held.key)))
    .limit(1);
  if (!kept) return holdOrReplay(database, request, reply, held);
  if (kept.status === null) throw new AppError(409, 'conflict', IDEMPOTENCY_KEY_IN_PROGRESS_MESSAGE);
  if (kept.requestHash !== requestHash) throw new AppError(409, 'conflict', IDEMPOTENCY_KEY_REUSED_MESSAGE);
  await reply
    .code(kept.status)
    .header('idempotent-replayed', 'true')
    .type(kept.responseType ?? 'application/json; charset=utf-8')
    .send(kept.responseBody ?? '');
  return false;
}

/** Keeps the answer for the retries; an answer of 500 and over lets go of the key, so a retry runs again. */
async function keepAnswer(database: Database, held: HeldKey, reply: FastifyReply, payload: unknown): Promise<void> {
  const where = and(eq(idempotencyKeys.accountId, held.accountId), eq(idempotencyKeys.callerId, held.callerId), eq(idempotencyKeys.key, held.key));
  if (reply.statusCode >= 500) {
    await database.db.delete(idempotencyKeys).where(where);
    return;
  }
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  const type = reply.getHeader('content-type');
  await database.db
    .update(idempotencyKeys)
    .set({ status: reply.statusCode, responseBody: body, responseType: typeof type === 'string' ? type : null })
    .where(where);
}

/**
 * The hooks: after the guard and the schema (the key is per account and caller, the fingerprint is of the
 * validated body), for POSTs of an account's routes that carry the header.
 */
export function registerIdempotency<L extends FastifyBaseLogger, P extends FastifyTypeProvider>(
  app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, L, P>,
  database: Database,
): void {
  app.decorateRequest('idempotency', null);
  app.addHook('preHandler', async (request, reply) => {
    request.idempotency = null;
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (request.method !== 'POST' || header === undefined || request.membership === null || request.principal === null) return;
    if (request.routeOptions.config.ownIdempotencyKey === true) return;
    const key = keySchema.safeParse(header);
    if (!key.success) throw new AppError(400, 'validation_failed', IDEMPOTENCY_KEY_INVALID_MESSAGE);
    const held: HeldKey = { accountId: request.membership.accountId, callerId: request.principal.clientId ?? request.principal.userId, key: key.data };
    if (await holdOrReplay(database, request, reply, held)) request.idempotency = held;
    else return reply;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (held === null) return payload;
    request.idempotency = null;
    await keepAnswer(database, held, reply, payload);
    return payload;
  });
}

/** Deletes keys and answers older than the retention period. Hourly, from the scheduler role. */
export function pruneIdempotencyKeysJob(database: Database) {
  return defineJob({
    name: 'maintenance.prune-idempotency-keys',
    data: z.object({}).loose(),
    schedule: { cron: '23 * * * *' },
    async handler(_data, ctx) {
      const deleted = await database.db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`))
        .returning({ key: idempotencyKeys.key });
      ctx.log.info({ deleted: deleted.length }, 'pruned idempotency keys');
    },
  });
}
