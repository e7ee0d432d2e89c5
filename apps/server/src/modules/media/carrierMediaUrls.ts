import type { MediaServices } from './services.js';
import { parseAccountMediaUrl } from './urls.js';

/** The account a stored file belongs to; null when there is no such file. */
export type MediaFileOwner = (fileId: string) => Promise<string | null>;

interface Deployment {
  services: MediaServices;
  ownerOf: MediaFileOwner;
  /** Owners already looked up: a file never changes account, so what was found stays true (bounded). */
  owners: Map<string, string>;
}

const OWNERS_KEPT = 10_000;

/**
 * The deployments of this process whose media carriers may be given (one in production; tests start
 * several). Carrier adapters are built from the config alone (modules/carriers/connections.ts), so rather than
 * threading the signer through every adapter factory they ask here, by the URL's public address.
 */
const deployments = new Map<string, Deployment>();

/**
 * Makes this deployment's account media URLs signable for carriers until the returned function is called.
 * `ownerOf` says whose a file is (media_files.account_id).
 */
export function registerCarrierMedia(services: MediaServices, ownerOf: MediaFileOwner): () => void {
  const deployment: Deployment = { services, ownerOf, owners: new Map() };
  deployments.set(services.publicUrl, deployment);
  return () => {
    if (deployments.get(services.publicUrl) === deployment) deployments.delete(services.publicUrl);
  };
}

async function ownerOf(deployment: Deployment, fileId: string): Promise<string | null> {
  const known = deployment.owners.get(fileId);
  if (known !== undefined) return known;
  const owner = await deployment.ownerOf(fileId);
  if (owner !== null) {
    if (deployment.owners.size >= OWNERS_KEPT) deployment.owners.clear();
    deployment.owners.set(fileId, owner.toLowerCase());
  }
  return owner?.toLowerCase() ?? null;
}

export interface CarrierMediaOptions {
  /** The account of the message the media goes with: only its own files are signed. */
  accountId: string;
  now?: Date;
  ttlSeconds?: number;
}

/**
 * What a carrier is given for a message's media URL at submit time: for one of our account media URLs naming
 * a file of the message's own account, an expiring signed URL it can fetch without a token; any other URL as
 * it is. Another account's file (a message written before sends checked their media, or by a path that skips
 * the check) is never signed: it goes unsigned, and the carrier's fetch of it is refused like any request
 * without a token. Without a signing key (PostgreSQL without SECRETS_KEY) the URL stays as it is too
 * (docs/media.md).
 */
export async function carrierMediaUrl(url: string, options: CarrierMediaOptions): Promise<string> {
  for (const deployment of deployments.values()) {
    const own = parseAccountMediaUrl(deployment.services.publicUrl, url);
    if (own === null) continue;
    const account = options.accountId.toLowerCase();
    if (own.accountId !== account || (await ownerOf(deployment, own.fileId)) !== account) return url;
    const signer = await deployment.services.signer(true);
    return signer === null ? url : signer.signedUrl(own.fileId, options.now, options.ttlSeconds);
  }
  return url;
}
