import type { Config } from '../../../platform/config.js';
import { createGuardedFetch, type GuardedFetch } from '../../../platform/net/guardedFetch.js';

/** The guarded fetcher with the operator's Twilio host (TWILIO_API_BASE_URL) let through, as a connector's base URL is. */
export function twilioFetch(config: Config): GuardedFetch {
  return createGuardedFetch({ allowedHosts: [...config.fetch.allowedHosts, new URL(config.carriers.twilioApiBaseUrl).hostname] });
}
