import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  NOTIFICATION_DESTINATION_TAKEN_MESSAGE,
  NOTIFICATIONS_LIMIT_MESSAGE,
  NOTIFICATIONS_MAX_PER_ACCOUNT,
  notificationEventTypes,
  type NotificationFilters,
  type SaveNotification,
  type SubscribeWebhook,
} from '@parley/shared';
import type { SecretsConfig } from '../../platform/config.js';
import { lockAccount } from '../../platform/db/accountLock.js';
import type { Db, Tx } from '../../platform/db/client.js';
import { contactGroups, notifications, phoneNumbers, type NotificationRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { AllowedHosts } from '../../platform/net/allowedHosts.js';
import { webhookDestinationRefusal } from './destinationPolicy.js';
import { syncEventSubscriptions } from './eventSubscriptions.js';
import { countNotifications, findByDestination, findNotification } from './notificationQueries.js';
import { newWebhookSecret, sealWebhookSecret, webhookSecretCipher } from './webhookSecret.js';

const NOTIFICATION = 'The notification';
const WEBHOOK = 'The webhook';

export interface NotificationDeps {
  db: Db;
  secrets: SecretsConfig;
  /** FETCH_ALLOWED_HOSTS: the non-public hosts a webhook may still go to. */
  allowedHosts: AllowedHosts;
}

/** A saved notification, with the webhook secret in clear when this call made it (shown once). */
export interface SavedNotification {
  row: NotificationRow;
  secret?: string;
}

function refuseDestination(deps: NotificationDeps, input: { type: SaveNotification['type']; destination: string }): void {
  if (input.type !== 'webhook') return;
  const refusal = webhookDestinationRefusal(deps.allowedHosts, input.destination);
  if (refusal !== null) throw new AppError(400, 'validation_failed', `destination: ${refusal}`);
}

/** The filters' groups and numbers must be the account's, checked before anything is written. */
async function checkFilters(tx: Tx, accountId: string, filters: NotificationFilters): Promise<void> {
  const groups = filters.groups ?? [];
  if (groups.length > 0) {
    const found = await tx.select({ id: contactGroups.id }).from(contactGroups).where(and(eq(contactGroups.accountId, accountId), inArray(contactGroups.id, groups)));
    if (found.length !== new Set(groups).size) throw new AppError(400, 'validation_failed', 'filters.groups: Every group must be a group of this account');
  }
  const numbers = filters.phoneNumbers ?? [];
  if (numbers.length > 0) {
    const found = await tx.select({ id: phoneNumbers.id }).from(phoneNumbers).where(and(eq(phoneNumbers.accountId, accountId), inArray(phoneNumbers.id, numbers)));
    if (found.length !== new Set(numbers).size) {
      throw new AppError(400, 'validation_failed', 'filters.phoneNumbers: Every phone number must be a number of this account');
    }
  }
}

async function checkFree(tx: Tx, accountId: string, input: { type: SaveNotification['type']; destination: string }, exceptId?: string): Promise<void> {
  const taken = await findByDestination(tx, accountId, input.type, input.destination);
  if (taken !== null && taken.id !== exceptId) throw new AppError(409, 'conflict', NOTIFICATION_DESTINATION_TAKEN_MESSAGE);
}

async function insertNotification(
  tx: Tx,
  deps: NotificationDeps,
  accountId: string,
  createdBy: string | null,
  input: SaveNotification,
): Promise<SavedNotification> {
  if ((await countNotifications(tx, accountId)) >= NOTIFICATIONS_MAX_PER_ACCOUNT) throw new AppError(409, 'conflict', NOTIFICATIONS_LIMIT_MESSAGE);
  const id = uuidv7();
  const secret = input.type === 'webhook' ? newWebhookSecret() : undefined;
  const sealed = secret === undefined ? null : sealWebhookSecret(await webhookSecretCipher(deps.secrets), id, secret);
  const [row] = await tx
    .insert(notifications)
    .values({
      id,
      accountId,
      type: input.type,
      destination: input.destination,
      eventTypes: input.eventTypes,
      filters: input.filters ?? {},
      disabled: input.disabled ?? false,
      secret: sealed,
      // From the account's last event on: the events before it were written for other webhooks.
      sentPosition: sql`(select coalesce(max(position), 0) from notification_events where account_id = ${accountId})`,
      createdBy,
    })
    .returning();
  if (!row) throw new Error('the notification was not written');
  await syncEventSubscriptions(tx, accountId);
  return secret === undefined ? { row } : { row, secret };
}

/** A new e-mail or webhook notification; a webhook's signing secret is made here and answered once. */
export function addNotification(deps: NotificationDeps, accountId: string, createdBy: string | null, input: SaveNotification): Promise<SavedNotification> {
  refuseDestination(deps, input);
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    await checkFree(tx, accountId, input);
    await checkFilters(tx, accountId, input.filters ?? {});
    return insertNotification(tx, deps, accountId, createdBy, input);
  });
}

/** Changes a notification; its type stays (a webhook keeps its secret), its destination may change. */
export function updateNotification(deps: NotificationDeps, accountId: string, id: string, input: SaveNotification): Promise<NotificationRow> {
  refuseDestination(deps, input);
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const existing = await findNotification(tx, accountId, id);
    if (existing === null) throw notFound(NOTIFICATION);
    if (existing.type !== input.type) throw new AppError(400, 'validation_failed', 'type: A notification keeps its type: remove it and add another');
    await checkFree(tx, accountId, input, id);
    await checkFilters(tx, accountId, input.filters ?? {});
    const [row] = await tx
      .update(notifications)
      .set({
        destination: input.destination,
        eventTypes: input.eventTypes,
        filters: input.filters ?? {},
        // A person enabling it again (or disabling it) takes over from Parley's own disabling.
        ...(input.disabled === undefined ? {} : { disabled: input.disabled, disabledReason: null, failingSince: null }),
        updatedAt: sql`now()`,
      })
      .where(and(eq(notifications.accountId, accountId), eq(notifications.id, id)))
      .returning();
    if (!row) throw notFound(NOTIFICATION);
    await syncEventSubscriptions(tx, accountId);
    return row;
  });
}

export function removeNotification(db: Db, accountId: string, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    const existing = await findNotification(tx, accountId, id);
    if (existing === null) throw notFound(NOTIFICATION);
    await tx.delete(notifications).where(and(eq(notifications.accountId, accountId), eq(notifications.id, id)));
    await syncEventSubscriptions(tx, accountId);
  });
}

/**
 * The hosted product's subscribe: a webhook for the URL, made or (when the URL has one) given the event
 * types sent. Without event types a subscription gets every event (docs/notifications.md).
 */
export function subscribeWebhook(deps: NotificationDeps, accountId: string, createdBy: string | null, input: SubscribeWebhook): Promise<SavedNotification> {
  const eventTypes = input.eventTypes ?? [...notificationEventTypes];
  refuseDestination(deps, { type: 'webhook', destination: input.url });
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const existing = await findByDestination(tx, accountId, 'webhook', input.url);
    if (existing === null) return insertNotification(tx, deps, accountId, createdBy, { type: 'webhook', destination: input.url, eventTypes });
    const [row] = await tx
      .update(notifications)
      .set({ eventTypes, disabled: false, disabledReason: null, failingSince: null, updatedAt: sql`now()` })
      .where(eq(notifications.id, existing.id))
      .returning();
    if (!row) throw notFound(WEBHOOK);
    await syncEventSubscriptions(tx, accountId);
    return { row };
  });
}

/** The hosted product's unsubscribe: the account's webhook for exactly this URL goes. */
export function unsubscribeWebhook(db: Db, accountId: string, url: string): Promise<void> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(notifications)
      .where(and(eq(notifications.accountId, accountId), eq(notifications.type, 'webhook'), eq(notifications.destination, url)))
      .returning({ id: notifications.id });
    if (removed.length === 0) throw notFound(WEBHOOK);
    await syncEventSubscriptions(tx, accountId);
  });
}
