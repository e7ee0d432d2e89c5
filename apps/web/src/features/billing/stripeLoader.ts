import type { Stripe } from '@stripe/stripe-js';
import { useClientConfig } from '../../api/useClientConfig';
import { ApiError } from '../../api/client';
import { STRIPE_UNAVAILABLE_MESSAGE } from './stripeCardFlow';

const loads = new Map<string, Promise<Stripe>>();

/**
 * Stripe.js for a publishable key, fetched from js.stripe.com on first use (Stripe serves it only from
 * there). The loader's `pure` entry injects nothing until it is called, and it is imported only here, so
 * the sandbox's pages never load Stripe.js. A failed load is forgotten, so the next attempt tries again.
 */
export const loadStripeJs = (publishableKey: string): Promise<Stripe> => {
  const known = loads.get(publishableKey);
  if (known !== undefined) return known;
  const load = import('@stripe/stripe-js/pure')
    .then(({ loadStripe }) => loadStripe(publishableKey))
    .then((stripe) => {
      if (stripe === null) throw new Error('Stripe.js is not available here');
      return stripe;
    })
    .catch(() => {
      loads.delete(publishableKey);
      throw new ApiError(STRIPE_UNAVAILABLE_MESSAGE);
    });
  loads.set(publishableKey, load);
  return load;
};

/** The deployment's payment provider (GET /v1/config); null until the configuration is known. */
export type PaymentsClient = { provider: 'sandbox' } | { provider: 'stripe'; publishableKey: string; loadStripe: () => Promise<Stripe> };

export const usePaymentsClient = (): PaymentsClient | null => {
  const payments = useClientConfig().data?.payments;
  if (payments === undefined) return null;
  const key = payments.stripePublishableKey;
  return payments.provider === 'stripe' && key !== null ? { provider: 'stripe', publishableKey: key, loadStripe: () => loadStripeJs(key) } : { provider: 'sandbox' };
};
