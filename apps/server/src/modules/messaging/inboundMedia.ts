import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { MessageEventData } from '@parley/shared';
import { isSimulatorPicture, readSimulatorPicture } from '../carriers/index.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { messages, type MessageRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { defineJob, type JobQueue } from '../../platform/jobs/queue.js';
import { createGuardedFetch, type GuardedFetch } from '../../platform/net/guardedFetch.js';
import { presentMessage } from './messagePresenter.js';
import { inboundMediaAuthorization } from './inboundMediaCredentials.js';
import { downloadMedia, inboundFilename, MediaFetchError, type FetchedMedia } from '../media/index.js';
import { storeMediaFile } from '../media/index.js';
import type { MediaServices } from '../media/index.js';
import { accountMediaUrl, parseAccountMediaUrl } from '../media/index.js';

export interface InboundMediaDeps {
  database: Database;
  media: MediaServices;
  config: Config;
  log: Pick<Logger, 'info' | 'warn'>;
  /** The guarded fetcher; by default one with the configured allowed hosts (config.fetch). */
  fetch?: GuardedFetch;
}

export interface KeptMedia {
  kept: number;
  /** Attachments left at the carrier's URL, and why. */
  failed: { url: string; reason: string; retryable: boolean }[];
}

/** The bytes of a virtual phone's sample picture are ours already; no HTTP round trip to ourselves. */
async function simulatorPicture(config: Config, url: string): Promise<FetchedMedia | null> {
  const prefix = `${config.publicUrl}/v1/simulator/media/`;
  if (!url.startsWith(prefix)) return null;
  const name = url.slice(prefix.length);
  if (!isSimulatorPicture(name)) return null;
  return { bytes: await readSimulatorPicture(name), contentType: 'image/png' };
}

/**
 * Fetches an inbound message's attachments from the carrier, stores them (media_files, source 'inbound')
 * and points the message's media at the account media URLs, publishing messageStatus with the new media.
 * Attachments already ours are skipped, so a retry only does what is left. One that cannot be fetched keeps
 * the carrier's URL; the caller retries when a failure may pass (the carrier answered 5xx or not at all).
 */
export async function keepInboundMedia(deps: InboundMediaDeps, accountId: string, messageId: string): Promise<KeptMedia> {
  const db = deps.database.db;
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, messageId), eq(messages.direction, 'inbound')));
  if (!message) return { kept: 0, failed: [] };
  const fetch = deps.fetch ?? createGuardedFetch({ allowedHosts: deps.config.fetch.allowedHosts });

  const replaced = new Map<string, { url: string; type: string }>();
  const failed: KeptMedia['failed'] = [];
  for (const [index, item] of message.media.entries()) {
    if (parseAccountMediaUrl(deps.config.publicUrl, item.url) !== null || replaced.has(item.url)) continue;
    try {
      const fetched =
        (await simulatorPicture(deps.config, item.url)) ??
        (await downloadMedia(item.url, {
          fetch,
          authorization: await inboundMediaAuthorization(db, deps.config, accountId, message.phoneNumberId, item.url),
        }));
      const row = await storeMediaFile(db, deps.media, {
        accountId,
        contentType: fetched.contentType,
        filename: item.filename === '' ? inboundFilename(item.url, fetched.contentType, index) : item.filename,
        bytes: fetched.bytes,
        width: null,
        height: null,
        source: 'inbound',
        messageId,
      });
      replaced.set(item.url, { url: accountMediaUrl(deps.config.publicUrl, accountId, row.id), type: fetched.contentType });
    } catch (error) {
      const retryable = error instanceof MediaFetchError ? error.retryable : true;
      failed.push({ url: item.url, reason: error instanceof Error ? error.message : String(error), retryable });
    }
  }
  if (replaced.size > 0) await rewriteMedia(deps.database, message, replaced);
  return { kept: replaced.size, failed };
}

/** Swaps the fetched URLs in, under the row's lock, and tells the account's screens (messageStatus). */
async function rewriteMedia(database: Database, message: MessageRow, replaced: ReadonlyMap<string, { url: string; type: string }>): Promise<void> {
  await database.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ media: messages.media })
      .from(messages)
      .where(and(eq(messages.accountId, message.accountId), eq(messages.id, message.id)))
      .for('update');
    if (!current) return;
    const media = current.media.map((item) => {
      const ours = replaced.get(item.url);
      return ours === undefined ? item : { ...item, url: ours.url, type: ours.type };
    });
    const [updated] = await tx
      .update(messages)
      .set({ media: sql`${JSON.stringify(media)}::jsonb` })
      .where(and(eq(messages.accountId, message.accountId), eq(messages.id, message.id)))
      .returning();
    if (!updated) return;
    const data: MessageEventData = { message: presentMessage(updated) };
    await publishEvent(tx, { type: 'messageStatus', accountId: updated.accountId, data });
  });
}

export const INBOUND_MEDIA_RETRIES = 5;

/** The background step of an inbound message with attachments (retries back off: 30 s, 1, 2, 4, 8 minutes). */
export function inboundMediaJob(deps: Omit<InboundMediaDeps, 'log'>) {
  return defineJob({
    name: 'media.inbound-fetch',
    data: z.object({ accountId: z.uuid(), messageId: z.uuid() }),
    retryLimit: INBOUND_MEDIA_RETRIES,
    retryDelaySeconds: 30,
    expireInSeconds: 10 * 60,
    async handler({ accountId, messageId }, ctx) {
      const result = await keepInboundMedia({ ...deps, log: ctx.log }, accountId, messageId);
      for (const failure of result.failed) ctx.log.warn({ messageId, url: failure.url, reason: failure.reason }, 'an inbound attachment could not be fetched');
      if (result.failed.some((f) => f.retryable) && ctx.retryCount < INBOUND_MEDIA_RETRIES) {
        throw new Error(`${String(result.failed.length)} attachment(s) of message ${messageId} could not be fetched yet`);
      }
    },
  });
}

export type InboundMediaJob = ReturnType<typeof inboundMediaJob>;

/**
 * What the inbound handler calls once a message with attachments is stored: queue the fetch. A queue failure
 * is logged, not thrown, so the carrier is not asked to deliver a stored message again; the message keeps
 * the carrier's URLs then.
 */
export function inboundMediaScheduler(jobs: JobQueue, job: InboundMediaJob, config: Config, log: Pick<Logger, 'error'>) {
  return async (message: MessageRow): Promise<void> => {
    if (!message.media.some((item) => parseAccountMediaUrl(config.publicUrl, item.url) === null)) return;
    try {
      await jobs.send(job, { accountId: message.accountId, messageId: message.id }, { singletonKey: `media:${message.id}` });
    } catch (error) {
      log.error({ err: error, messageId: message.id }, 'the fetch of an inbound message’s attachments could not be queued');
    }
  };
}
