export { linkRoutes } from './routes/links.js';
export { redirectRoutes, shortHostHook } from './routes/redirect.js';
export { domainRoutes } from './routes/domains.js';
export { recheckDomainsJob } from './domainRecheck.js';
export { personalizeTrackedLinks, recordRecipientCodes } from './trackedLinks.js';
export { turnTrackingOffForAccount } from './linkManager.js';
export { isAutoLinkDomain, shortenLinks, type ShortenMode, type ShortenedText } from './autoShorten.js';
export { knowSharedDomain } from './sharedDomains.js';
