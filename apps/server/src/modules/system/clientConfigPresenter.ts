import type { ClientConfig } from '@parley/shared';
import type { CarrierName } from '../carriers/index.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { REALTIME_PATH } from '../realtime/index.js';

/** The provider and, with Stripe, its publishable key: never the secret key or the webhook secret. */
const paymentsOf = (payments: Config['billing']['payments']): ClientConfig['payments'] =>
  payments.provider === 'stripe'
    ? { provider: 'stripe', stripePublishableKey: payments.publishableKey }
    : { provider: 'sandbox', stripePublishableKey: null };

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
    payments: paymentsOf(config.billing.payments),
    realtime: { path: REALTIME_PATH, devAuth: config.devAuth },
    auth: {
      issuer: config.identity.issuer,
      clientId: config.identity.clientId,
      scopes: config.identity.scopes,
      socialProviders: config.identity.socialProviders.map(({ id, name }) => ({ id, name })),
    },
  };
}
