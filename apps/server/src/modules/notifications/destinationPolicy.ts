import { isIP } from 'node:net';
import { addressRefusal } from '../../platform/net/addressPolicy.js';
import { normalHost, type AllowedHosts } from '../../platform/net/allowedHosts.js';

/**
 * Why a webhook URL is refused when it is saved, or null. Only what the URL itself says is judged here (an
 * address that is not public, a localhost name) unless FETCH_ALLOWED_HOSTS lets it: names are resolved, and
 * every address checked, when a delivery connects (the guarded fetcher), since a name may change its answer.
 */
export function webhookDestinationRefusal(allowed: AllowedHosts, url: string): string | null {
  let host: string;
  try {
    host = normalHost(new URL(url).hostname);
  } catch {
    return 'Valid URL with http or https prefix required';
  }
  if (isIP(host) !== 0) return addressRefusal(allowed, host, host);
  if (host === 'localhost' || host.endsWith('.localhost')) return addressRefusal(allowed, host, '127.0.0.1');
  return null;
}
