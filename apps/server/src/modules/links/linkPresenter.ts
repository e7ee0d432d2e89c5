import type { Link } from '@parley/shared';
import type { LinkView } from './linkManager.js';
import type { SharedDomain } from './sharedDomains.js';

/** The short URL of a code: on its custom domain over https, else on the shared domain. */
export const shortUrlOf = (code: string, domainName: string | null, shared: SharedDomain): string =>
  domainName === null ? `${shared.base}/${code}` : `https://${domainName}/${code}`;

export function presentLink(row: LinkView, shared: SharedDomain): Link {
  return {
    id: row.id,
    name: row.name,
    destinationUrl: row.destinationUrl,
    shortenedUrl: shortUrlOf(row.code, row.domainName, shared),
    code: row.code,
    domain: { id: row.domainId ?? shared.id },
    contactTracking: row.contactTracking,
    clicks: row.clicks,
    botClicks: row.botClicks,
    created: { at: row.createdAt.toISOString() },
    updated: { at: row.updatedAt.toISOString() },
  };
}
