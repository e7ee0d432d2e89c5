import type { Logger } from 'pino';
import { z } from 'zod';
import type { OutboxEventPayload, WebPushPayload } from '@parley/shared';
import type { Config, SecretsConfig } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import type { EventSubscriber } from '../../platform/events/outboxDispatcher.js';
import { vapidKeysFor, webPushPossible, type VapidKeys } from './keys.js';
import { notificationFor } from './payload.js';
import { createGuardedFetch, type GuardedFetch } from '../../platform/net/guardedFetch.js';
import { sendPush, type PushOutcome } from './sender.js';
import { conversationAudience, recordOutcomes, type PushTarget } from './subscriptions.js';

export interface WebPushDeliveryOptions {
  database: Database;
  /** Hosts pushes may reach although they are not public (FETCH_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** The key the VAPID private key is stored under. */
  secrets: SecretsConfig;
  /** The VAPID subject (WEB_PUSH_SUBJECT). */
  subject: string;
  log: Logger;
  /** Pushes in flight at once, across all messages. */
  concurrency?: number;
  /** Messages waiting for their pushes; beyond it new ones get none (push services are down or slow). */
  maxQueued?: number;
  timeoutMs?: number;
}

interface ReceivedMessage {
  accountId: string;
  messageId: string;
  conversationId: string;
  text: string;
  mediaCount: number;
}

// Only what a notification needs of the event's Message.
const messageEventData = z.object({
  message: z.object({
    id: z.string(),
    conversation: z.object({ id: z.uuid() }),
    message: z.string(),
    media: z.array(z.unknown()),
  }),
});

// Messages handled at once: each reads its audience, then waits on its pushes.
export const MESSAGE_WORKERS = 4;

/**
 * The outbox subscriber of web push: a messageReceived event is queued here and deliver() returns at
 * once, so the outbox never waits on a push service. The pushes go out in the background, a bounded
 * number at a time, each with a deadline; their failures are logged and counted, never thrown (a throw
 * would hold the account's later events). A push is best effort: an event delivered again after a
 * crash may notify twice, which the notification's tag folds into one.
 */
export class WebPushDelivery implements EventSubscriber {
  readonly name = 'webpush';
  readonly types = ['messageReceived'];
  private readonly queue: ReceivedMessage[] = [];
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private workers = 0;
  private pushesInFlight = 0;
  private readonly pushWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  private droppedSinceWarning = 0;

  private readonly fetch: GuardedFetch;

  constructor(private readonly options: WebPushDeliveryOptions) {
    this.fetch = createGuardedFetch({ allowedHosts: options.allowedHosts ?? [] });
    this.concurrency = options.concurrency ?? 8;
    this.maxQueued = options.maxQueued ?? 1000;
  }

  deliver(event: OutboxEventPayload): Promise<void> {
    if (event.type !== 'messageReceived' || event.accountId === null || this.stopped) return Promise.resolve();
    const parsed = messageEventData.safeParse(event.data);
    if (!parsed.success) {
      this.options.log.warn({ eventId: event.id }, 'messageReceived event without a message: no push');
      return Promise.resolve();
    }
    if (this.queue.length >= this.maxQueued) {
      // Warn once per burst, not once per message.
      if (this.droppedSinceWarning === 0) this.options.log.warn({ maxQueued: this.maxQueued }, 'web push queue is full: new messages get no push');
      this.droppedSinceWarning += 1;
      return Promise.resolve();
    }
    const { message } = parsed.data;
    this.queue.push({
      accountId: event.accountId,
      messageId: message.id,
      conversationId: message.conversation.id,
      text: message.message,
      mediaCount: message.media.length,
    });
    this.pump();
    return Promise.resolve();
  }

  /** Resolves once nothing is queued or in flight (tests, shutdown). */
  idle(): Promise<void> {
    if (this.workers === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Takes no more; drops what waits and lets the pushes in flight finish (each has its deadline). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.queue.length > 0) this.options.log.info({ dropped: this.queue.length }, 'web push stopping: queued pushes dropped');
    this.queue.length = 0;
    await this.idle();
  }

  private pump(): void {
    while (this.workers < MESSAGE_WORKERS && this.queue.length > 0) {
      const next = this.queue.shift();
      if (next === undefined) break;
      this.workers += 1;
      this.handle(next)
        .catch((error: unknown) => {
          this.options.log.error({ err: error, messageId: next.messageId }, 'web push of a message failed');
        })
        .finally(() => {
          this.workers -= 1;
          this.pump();
          if (this.workers === 0 && this.queue.length === 0) {
            if (this.droppedSinceWarning > 0) this.options.log.warn({ dropped: this.droppedSinceWarning }, 'web push queue drained');
            this.droppedSinceWarning = 0;
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
  }

  private async handle(message: ReceivedMessage): Promise<void> {
    const { db } = this.options.database;
    const audience = await conversationAudience(db, message.accountId, message.conversationId);
    if (audience === null || audience.targets.length === 0) return;
    // Subscriptions exist, so the keys they were made with do too (read once, kept).
    const vapid = await vapidKeysFor(this.options.database, this.options.secrets, this.options.log, { create: false });
    if (vapid === null) return;
    const payload = notificationFor(audience.contact, message, audience.accountCountry);
    const results = await Promise.all(
      audience.targets.map(async (target) => ({ target, outcome: await this.push(target, payload, vapid) })),
    );
    const delivered: string[] = [];
    const gone: string[] = [];
    const failed: string[] = [];
    for (const { target, outcome } of results) {
      switch (outcome.kind) {
        case 'delivered':
          delivered.push(target.id);
          break;
        case 'gone':
          gone.push(target.id);
          break;
        case 'failed':
          failed.push(target.id);
          // The endpoint is the browser's secret: its origin says which push service refused.
          this.options.log.warn(
            { subscriptionId: target.id, pushService: originOf(target.endpoint), status: outcome.status, reason: outcome.reason },
            'web push failed',
          );
          break;
      }
    }
    const { removedAfterFailures } = await recordOutcomes(db, { delivered, gone, failed });
    if (gone.length > 0 || removedAfterFailures > 0) {
      this.options.log.info({ gone: gone.length, removedAfterFailures }, 'web push subscriptions removed');
    }
  }

  /** One push, waiting for a free slot first. */
  private async push(target: PushTarget, payload: WebPushPayload, vapid: VapidKeys): Promise<PushOutcome> {
    while (this.pushesInFlight >= this.concurrency) await new Promise<void>((resolve) => this.pushWaiters.push(resolve));
    this.pushesInFlight += 1;
    try {
      return await sendPush(target, payload, {
        fetch: this.fetch,
        vapid,
        subject: this.options.subject,
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      });
    } finally {
      this.pushesInFlight -= 1;
      this.pushWaiters.shift()?.();
    }
  }
}

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Web push for the process that runs the outbox dispatcher, or null (logged) when this deployment cannot
 * push. Its keys are read when the first push needs them: the web app makes them (docs/webPush.md).
 */
export function startWebPush(database: Database, config: Config, log: Logger): WebPushDelivery | null {
  if (!webPushPossible(config.secrets)) {
    log.warn('web push is off: set SECRETS_KEY on every process so the VAPID private key can be stored encrypted');
    return null;
  }
  return new WebPushDelivery({ database, secrets: config.secrets, subject: config.webPush.subject, log, allowedHosts: config.fetch.allowedHosts });
}
