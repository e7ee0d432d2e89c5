import type { Bundle, ZObject } from 'zapier-platform-core';
import { accountUrl, callAccount } from '../parleyApi.js';
import { headerOf, verifySignature } from './signature.js';

/** A delivery as Parley posts it (docs/notifications.md, "What is sent"), with the event id for de-duplication. */
export interface HookEvent {
  id: string;
  type: string;
  timestamp: string;
  accountId: string;
  data: Record<string, unknown>;
}

export interface Subscription {
  /** The subscribed URL: Parley knows a subscription by it. */
  id: string;
  url: string;
  eventTypes: string[];
  /** The signing secret Parley answers once, kept with the subscription to check each delivery. */
  secret?: string;
}

export interface HookTriggerSpec {
  key: string;
  noun: string;
  label: string;
  description: string;
  /** Parley's event type (kebab-case). */
  eventType: string;
  /** Recent real records, as deliveries would carry them, for the Zap editor's samples. */
  recent: (z: ZObject, bundle: Bundle) => Promise<{ record: { id: string }; at: string; data: Record<string, unknown> }[]>;
  sample: HookEvent;
}

async function subscribe(z: ZObject, bundle: Bundle, eventType: string): Promise<Subscription> {
  const saved = await callAccount<Omit<Subscription, 'id'>>(z, bundle, { method: 'POST', path: '/webhooks', body: { url: bundle.targetUrl, eventTypes: [eventType] } });
  return { ...saved, id: saved.url };
}

async function unsubscribe(z: ZObject, bundle: Bundle): Promise<{ url: string }> {
  const url = (bundle.subscribeData as Partial<Subscription> | undefined)?.url ?? bundle.targetUrl ?? '';
  await z.request({ url: accountUrl(z, bundle, `/webhooks/${encodeURIComponent(url)}`), method: 'DELETE' });
  return { url };
}

/**
 * The delivery Zapier caught, once its signature holds for the subscription's secret: a forged or altered
 * request is refused, an event of another type gives nothing.
 */
function delivered(z: ZObject, bundle: Bundle, eventType: string): HookEvent[] {
  const raw = bundle.rawRequest;
  const secret = (bundle.subscribeData as Partial<Subscription> | undefined)?.secret;
  if (secret === undefined || secret === '') throw new z.errors.Error('This subscription has no signing secret: turn the Zap off and on again', 'no_secret', 400);
  const headers = raw?.headers ?? {};
  const content = raw?.content ?? '';
  if (!verifySignature(secret, headers, content)) throw new z.errors.Error('Not a delivery from Parley: the signature does not match', 'invalid_signature', 401);
  const body = JSON.parse(content) as Omit<HookEvent, 'id'>;
  if (body.type !== eventType) return [];
  return [{ id: headerOf(headers, 'webhook-id') ?? '', ...body }];
}

/** A REST-hook trigger on one of Parley's event types, subscribed through the public webhooks API. */
export function hookTrigger(spec: HookTriggerSpec) {
  return {
    key: spec.key,
    noun: spec.noun,
    display: { label: spec.label, description: spec.description },
    operation: {
      type: 'hook' as const,
      performSubscribe: (z: ZObject, bundle: Bundle) => subscribe(z, bundle, spec.eventType),
      performUnsubscribe: unsubscribe,
      perform: (z: ZObject, bundle: Bundle) => delivered(z, bundle, spec.eventType),
      performList: async (z: ZObject, bundle: Bundle): Promise<HookEvent[]> =>
        (await spec.recent(z, bundle)).map(({ record, at, data }) => ({
          id: `sample_${record.id}`,
          type: spec.eventType,
          timestamp: at,
          accountId: bundle.authData.accountId ?? '',
          data,
        })),
      sample: spec.sample,
    },
  };
}
