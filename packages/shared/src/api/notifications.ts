import { z } from 'zod';
import { emailAddress, httpUrl } from '../forms.js';
import { validationMessages } from '../validation.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/**
 * Notifications (docs/notifications.md): an account's e-mail and webhook destinations and the events each
 * wants. Event types travel as the kebab-case names of the page's flags (messageReceived → message-received).
 */

export const notificationEventTypes = [
  'message-received',
  'message-sent',
  'message-status',
  'contact-created',
  'contact-updated',
  'contact-removed',
  'contact-opt-out',
  'contact-opt-in',
  'conversation-started',
  'conversation-closed',
  'list-opt-out',
  'list-opt-in',
] as const;
export type NotificationEventType = (typeof notificationEventTypes)[number];

export const notificationTypes = ['email', 'webhook'] as const;

/** Why Parley disabled a notification by itself (docs/notifications.md, "Deliveries"). */
export const notificationDisabledReasons = ['gone', 'failing'] as const;
export type NotificationDisabledReason = (typeof notificationDisabledReasons)[number];
export type NotificationType = (typeof notificationTypes)[number];

export const NOTIFICATION_DESTINATION_TAKEN_MESSAGE = 'A notification of this type already goes to this destination';
export const NOTIFICATION_EVENT_TYPES_MESSAGE = `Event types are ${notificationEventTypes.join(', ')}`;
export const NOTIFICATIONS_MAX_PER_ACCOUNT = 50;
export const NOTIFICATIONS_LIMIT_MESSAGE = `An account has at most ${String(NOTIFICATIONS_MAX_PER_ACCOUNT)} notifications`;
/** What the notifications page says when the account has none (spec: empty states). */
export const NOTIFICATIONS_EMPTY_STATE = 'No Notifications Exist';

const eventTypeSchema = z.enum(notificationEventTypes, { message: NOTIFICATION_EVENT_TYPES_MESSAGE });
const eventTypeList = z
  .array(eventTypeSchema, { message: NOTIFICATION_EVENT_TYPES_MESSAGE })
  .max(notificationEventTypes.length)
  .transform((types) => [...new Set(types)]);

/** What narrows the events a notification gets; each list left out (or empty) narrows nothing. */
export const notificationFiltersSchema = z
  .object({
    groups: z.array(z.uuid({ message: 'Not a group id' })).max(100).optional(),
    phoneNumbers: z.array(z.uuid({ message: 'Not a phone number id' })).max(100).optional(),
    /** For message-status: only these statuses (delivered, failed ...). */
    statuses: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
    direction: z.enum(['incoming', 'outgoing']).optional(),
  })
  .strict()
  .meta({ id: 'NotificationFilters' });
export type NotificationFilters = z.infer<typeof notificationFiltersSchema>;

const webhookDestination = z.string({ message: validationMessages.required }).trim().min(1, { message: validationMessages.required }).max(2000).pipe(httpUrl);

/** POST and PUT /v1/accounts/{acc}/notifications: the destination is checked by type. */
export const saveNotificationSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('email'),
    destination: emailAddress,
    eventTypes: eventTypeList,
    filters: notificationFiltersSchema.optional(),
    disabled: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('webhook'),
    destination: webhookDestination,
    eventTypes: eventTypeList,
    filters: notificationFiltersSchema.optional(),
    disabled: z.boolean().optional(),
  }),
]);
export type SaveNotification = z.output<typeof saveNotificationSchema>;

export const notificationSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(notificationTypes),
    destination: z.string(),
    eventTypes: z.array(z.enum(notificationEventTypes)),
    filters: notificationFiltersSchema,
    disabled: z.boolean(),
    /** Why Parley disabled it by itself: the endpoint answered 410 Gone, or kept failing for 5 days. */
    disabledReason: z.enum(notificationDisabledReasons).optional(),
    /** Since when every delivery to it has failed (left out while it works). */
    failingSince: z.iso.datetime().optional(),
    /** A webhook's signing secret (Standard Webhooks, `whsec_...`): in the answer that made it or rotated it, never again. */
    secret: z.string().optional(),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = listQuerySchema;
export const notificationListSchema = listResponse(notificationSchema);
export const notificationRecordSchema = recordResponse(notificationSchema);

/**
 * The hosted product's webhook subscriptions (GET/POST .../webhooks, DELETE .../webhooks/{url}): a webhook
 * notification seen by its URL. Its clients send `url` (some `callbackUrl`, which its document requires).
 */
export const subscribeWebhookSchema = z
  .object({
    url: webhookDestination.optional(),
    callbackUrl: webhookDestination.optional(),
    eventTypes: eventTypeList.optional(),
  })
  .refine((body) => body.url !== undefined || body.callbackUrl !== undefined, { message: 'url: Required', path: ['url'] })
  .transform((body) => ({ url: body.url ?? body.callbackUrl ?? '', eventTypes: body.eventTypes }));
export type SubscribeWebhook = z.output<typeof subscribeWebhookSchema>;

export const webhookSubscriptionSchema = z
  .object({
    url: z.string(),
    eventTypes: z.array(z.enum(notificationEventTypes)),
    /** The signing secret, in the answer that made the subscription only. */
    secret: z.string().optional(),
  })
  .meta({ id: 'WebhookSubscription' });
export type WebhookSubscription = z.infer<typeof webhookSubscriptionSchema>;

export const webhookSubscriptionListSchema = listResponse(webhookSubscriptionSchema).extend({ success: z.literal(true) });
export const webhookSubscriptionRecordSchema = z.object({ success: z.literal(true), data: webhookSubscriptionSchema });

/** The event type of "Send test event": delivered like any other, to one notification only. */
export const NOTIFICATION_TEST_EVENT_TYPE = 'webhook-test';

export const notificationDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type NotificationDeliveryStatus = (typeof notificationDeliveryStatuses)[number];

/** One try at delivering an event: what the endpoint answered, or why there was no answer. */
export const notificationAttemptSchema = z
  .object({
    attempt: z.number().int().min(1),
    at: z.iso.datetime(),
    /** The HTTP status answered; left out when there was none (refused, timed out, e-mail). */
    statusCode: z.number().int().optional(),
    durationMs: z.number().int().min(0),
    /** Why it failed without an answer (timeout, connection refused, a refused address ...). */
    error: z.string().optional(),
    /** The answer's first bytes (up to 1 KB). */
    responseHead: z.string().optional(),
  })
  .meta({ id: 'NotificationAttempt' });
export type NotificationAttempt = z.infer<typeof notificationAttemptSchema>;

/** An event on its way to one notification: its body, state and last try (docs/notifications.md). */
export const notificationDeliverySchema = z
  .object({
    id: z.uuid(),
    /** The event's id: `webhook-id` of every try, the same on retries and resends, for de-duplication. */
    eventId: z.string(),
    eventType: z.union([z.enum(notificationEventTypes), z.literal(NOTIFICATION_TEST_EVENT_TYPE)]),
    status: z.enum(notificationDeliveryStatuses),
    attempts: z.number().int().min(0),
    /** The JSON body sent (a webhook's POST body; an e-mail's event). */
    body: z.string(),
    created: z.object({ at: z.iso.datetime() }),
    /** When the next try is due (pending only). */
    nextAttemptAt: z.iso.datetime().optional(),
    deliveredAt: z.iso.datetime().optional(),
    lastAttempt: notificationAttemptSchema.optional(),
  })
  .meta({ id: 'NotificationDelivery' });
export type NotificationDelivery = z.infer<typeof notificationDeliverySchema>;

export const notificationDeliveryListQuerySchema = listQuerySchema.extend({
  status: z.enum(notificationDeliveryStatuses).optional(),
});
export const notificationDeliveryListSchema = listResponse(notificationDeliverySchema);
export const notificationDeliveryRecordSchema = recordResponse(
  notificationDeliverySchema.extend({ attemptLog: z.array(notificationAttemptSchema) }),
);

/** POST .../notifications/{id}/secret: the new secret, once; the previous one still signs until `previousValidUntil`. */
export const rotatedSecretSchema = z.object({
  data: z.object({ secret: z.string(), previousValidUntil: z.iso.datetime() }),
});
/** How long a rotated-out webhook secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
