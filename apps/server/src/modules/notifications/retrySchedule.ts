/**
 * When a failed delivery is tried again (docs/notifications.md, "Retries"): after the nth failure, the nth
 * delay; the last one repeats. A delivery not delivered within DELIVERY_GIVE_UP_MS of its event fails for good.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
export const DELIVERY_GIVE_UP_MS = 3 * 24 * 3_600_000;
/** An endpoint every delivery to which has failed for this long is disabled, and its account's administrators told. */
export const ENDPOINT_FAILING_DISABLE_MS = 5 * 24 * 3_600_000;

/** The delay before the next try after `attempts` tries, or null when the delivery should be given up. */
export function nextRetryDelay(attempts: number, createdAt: Date, now: Date, delays: readonly number[] = RETRY_DELAYS_MS): number | null {
  const delay = delays[Math.min(Math.max(attempts, 1), delays.length) - 1] ?? 0;
  return now.getTime() + delay - createdAt.getTime() > DELIVERY_GIVE_UP_MS ? null : delay;
}
