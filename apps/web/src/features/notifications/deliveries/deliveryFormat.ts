import type { NotificationAttempt, NotificationDeliveryStatus } from '@parley/shared';

/** A body as sent, indented when it is JSON (a webhook's always is), else as it is. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body) as unknown, null, 2);
  } catch {
    return body;
  }
}

/** A duration as a person reads it: 180 ms, 2.4 s. */
export const durationText = (ms: number | undefined): string => {
  if (ms === undefined) return '—';
  return ms < 1000 ? `${String(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
};

/** What an attempt got: the HTTP status, or why there was none. */
export const attemptOutcome = (attempt: NotificationAttempt | undefined): string => {
  if (attempt === undefined) return 'Not tried yet';
  if (attempt.statusCode !== undefined) return `HTTP ${String(attempt.statusCode)}`;
  return attempt.error ?? 'No answer';
};

export const deliveryStatusLabels: Record<NotificationDeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

export const deliveryStatusColours: Record<NotificationDeliveryStatus, 'warning' | 'success' | 'error'> = {
  pending: 'warning',
  delivered: 'success',
  failed: 'error',
};

export const timeText = (iso: string | undefined): string =>
  iso === undefined ? '—' : new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The day and the time of day apart, for a phone's narrow column. */
export const dayText = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
export const clockText = (iso: string): string =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
