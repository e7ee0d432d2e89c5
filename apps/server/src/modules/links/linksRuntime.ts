import type { Logger } from 'pino';
import type { LinksConfig } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { ClickBuffer } from './clickBuffer.js';
import { RedirectCache, ShortHosts } from './redirectCache.js';
import { knowSharedDomain, type SharedDomain } from './sharedDomains.js';

/** What the redirect path keeps in memory: one per database the process serves. */
export interface LinksRuntime {
  cache: RedirectCache;
  clicks: ClickBuffer;
  hosts: ShortHosts;
  shared: SharedDomain;
}

const runtimes = new WeakMap<Database, LinksRuntime>();

/** The process's redirect cache, click buffer and short hosts over `database`, made on first use. */
export function linksRuntime(database: Database, config: { links: LinksConfig; publicUrl: string }, log: Logger): LinksRuntime {
  let runtime = runtimes.get(database);
  if (runtime === undefined) {
    runtime = {
      cache: new RedirectCache(database),
      clicks: new ClickBuffer(database, log.child({ component: 'links' })),
      hosts: new ShortHosts(database, config.links.shortDomain),
      shared: knowSharedDomain(config.links, config.publicUrl),
    };
    runtimes.set(database, runtime);
  }
  return runtime;
}

/** Writes the last clicks and lets the runtime go (the app over the database is closing). */
export async function closeLinksRuntime(database: Database): Promise<void> {
  const runtime = runtimes.get(database);
  runtimes.delete(database);
  await runtime?.clicks.close();
}

/** The runtime already made over `database` (tests flush its clicks). */
export const existingLinksRuntime = (database: Database): LinksRuntime | undefined => runtimes.get(database);
