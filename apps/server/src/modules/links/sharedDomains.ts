import { v5 as uuidv5 } from 'uuid';
import type { CustomDomain } from '@parley/shared';
import type { LinksConfig } from '../../platform/config.js';

/** Namespace of the shared domains' ids: the same host gives the same id on every process and restart. */
const SHARED_DOMAIN_NAMESPACE = '6f1c7f9e-4a54-4f0e-9d43-5b0f2f6f1a21';

export interface SharedDomain {
  id: string;
  /** What the domain select shows: the host, with /r when links live on the main host. */
  label: string;
  /** The start of every shortened URL on it; the code follows after a slash. */
  base: string;
}

/**
 * The deployment's shared short domain: SHORT_LINK_DOMAIN, or else the main host under /r. A link on it
 * keeps domain_id null (docs/links.md).
 */
export function sharedDomain(config: LinksConfig, publicUrl: string): SharedDomain {
  if (config.shortDomain !== null) {
    return { id: uuidv5(config.shortDomain, SHARED_DOMAIN_NAMESPACE), label: config.shortDomain, base: `https://${config.shortDomain}` };
  }
  const host = new URL(publicUrl).host;
  return { id: uuidv5(host, SHARED_DOMAIN_NAMESPACE), label: `${host}/r`, base: `${publicUrl}/r` };
}

/**
 * The shared domains this process serves, by id: a send (which has no config at hand) finds the base of an
 * account's autoLinkShorten domain here. Ids come from the host, so deployments in one process never clash.
 */
const knownShared = new Map<string, SharedDomain>();
let latestShared: SharedDomain | null = null;

/** The deployment's shared domain, remembered for the send path (autoShorten.ts). */
export function knowSharedDomain(config: LinksConfig, publicUrl: string): SharedDomain {
  const shared = sharedDomain(config, publicUrl);
  knownShared.set(shared.id, shared);
  latestShared = shared;
  return shared;
}

/** A shared domain this process serves, by id; else the one it last learnt (the operator changed it). */
export const sharedDomainById = (id: string): SharedDomain | null => knownShared.get(id) ?? latestShared;

/** Every shared domain this process serves: their URLs are already short. */
export const knownSharedDomains = (): SharedDomain[] => [...knownShared.values()];

export const presentSharedDomain = (shared: SharedDomain): CustomDomain => ({ id: shared.id, domain: shared.label, renewAt: null, shared: true, records: [] });
