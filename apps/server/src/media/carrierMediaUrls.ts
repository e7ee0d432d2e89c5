import type { MediaServices } from './services.js';
import { parseAccountMediaUrl } from './urls.js';

/**
 * The deployments of this process whose media carriers may be given (one in production; tests start
 * several). Carrier adapters are built from the config alone (carriers/connections.ts), so rather than
 * threading the signer through every adapter factory they ask here, by the URL's public address.
 */
const deployments = new Map<string, MediaServices>();

/** Makes this deployment's account media URLs signable for carriers until the returned function is called. */
export function registerCarrierMedia(services: MediaServices): () => void {
  deployments.set(services.publicUrl, services);
  return () => {
    if (deployments.get(services.publicUrl) === services) deployments.delete(services.publicUrl);
  };
}

/**
 * What a carrier is given for a message's media URL at submit time: for one of our account media URLs an
 * expiring signed URL it can fetch without a token; any other URL as it is. Without a signing key (PostgreSQL
 * without SECRETS_KEY) the URL stays as it is and the carrier's fetch is refused (docs/media.md).
 */
export async function carrierMediaUrl(url: string, options: { now?: Date; ttlSeconds?: number } = {}): Promise<string> {
  for (const services of deployments.values()) {
    const own = parseAccountMediaUrl(services.publicUrl, url);
    if (own === null) continue;
    const signer = await services.signer(true);
    return signer === null ? url : signer.signedUrl(own.fileId, options.now, options.ttlSeconds);
  }
  return url;
}
