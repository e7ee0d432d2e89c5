/** What one try at a delivery came to. */
export interface TryResult {
  /** A webhook's request, or an e-mail digest's mail (delivered when handed over: no status code). */
  channel: 'webhook' | 'email';
  deliveryId: string;
  notificationId: string;
  accountId: string;
  attempt: number;
  createdAt: Date;
  at: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseHead: string | null;
  /**
   * A webhook's first try at an event read from its cursor: no delivery row yet; the result writes it
   * (as `deliveryId`) from the event row. Null for a try at a delivery row (a retry, a resend, a test, a mail).
   */
  event: { position: number; eventId: string; eventType: string } | null;
}

export type Outcome = 'delivered' | 'gone' | 'retry';

/** A mail handed over delivers. For a webhook, 2xx delivers; 410 Gone means the receiver wants no more (the endpoint is disabled); anything else is retried. */
export function outcomeOf(result: Pick<TryResult, 'channel' | 'statusCode' | 'error'>): Outcome {
  if (result.channel === 'email') return result.error === null ? 'delivered' : 'retry';
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) return 'delivered';
  if (code === 410) return 'gone';
  return 'retry';
}
