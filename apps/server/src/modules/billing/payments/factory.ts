import type { Config } from '../../../platform/config.js';
import type { AppContext } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/client.js';
import type { PaymentProvider } from './provider.js';
import { SandboxProvider } from './sandbox/sandboxProvider.js';
import { StripeProvider } from './stripe/stripeProvider.js';

/** The provider the configuration names (PAYMENTS_PROVIDER; docs/billing.md). */
export type PaymentProviders = SandboxProvider | StripeProvider;

export function createPaymentProvider(config: Config, db: Db, afterSandboxEvents?: () => void): PaymentProviders {
  const payments = config.billing.payments;
  switch (payments.provider) {
    case 'sandbox':
      return new SandboxProvider(db, afterSandboxEvents);
    case 'stripe':
      return new StripeProvider({ secretKey: payments.secretKey, webhookSecret: payments.webhookSecret, api: payments.api });
  }
}

const built = new WeakMap<AppContext, SandboxProvider | StripeProvider>();

/** The context's provider: the one given (the server's), else one made from its config once. */
export function paymentsOf(ctx: AppContext): SandboxProvider | StripeProvider {
  if (ctx.payments) return ctx.payments;
  let provider = built.get(ctx);
  if (!provider) {
    provider = createPaymentProvider(ctx.config, ctx.database.db);
    built.set(ctx, provider);
  }
  return provider;
}

export type { PaymentProvider };
