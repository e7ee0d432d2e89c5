import type { ClientConfig } from '@parley/shared';
import type { CarrierName } from '../carriers/index.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { REALTIME_PATH } from '../realtime/index.js';

export function presentClientConfig(
  config: Config,
  databaseKind: Database['kind'],
  carriers: readonly CarrierName[],
): ClientConfig {
  return {
    version: config.version,
    embedded: databaseKind === 'pglite',
    publicUrl: config.publicUrl,
    simulator: carriers.includes('simulator'),
    pageViews: { sink: config.pageViews.sink, url: config.pageViews.url },
    helpCenterUrl: config.helpCenterUrl,
    realtime: { path: REALTIME_PATH, devAuth: config.devAuth },
    auth: {
      issuer: config.identity.issuer,
      clientId: config.identity.clientId,
      scopes: config.identity.scopes,
      socialProviders: config.identity.socialProviders.map(({ id, name }) => ({ id, name })),
    },
  };
}
