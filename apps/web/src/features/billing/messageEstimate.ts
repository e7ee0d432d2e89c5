import type { PlanPricing } from '@parley/shared';

/** Plans price countries without a price of their own under this key. */
export const DEFAULT_PRICING_KEY = 'DEFAULT';

/** The outbound SMS price per segment for a country, or the plan's default price. */
export const outboundSmsPrice = (pricing: PlanPricing, country: string): number | null => {
  const price = pricing[country]?.sms.outbound ?? pricing[DEFAULT_PRICING_KEY]?.sms.outbound;
  if (price === undefined) return null;
  const value = Number(price);
  return Number.isFinite(value) && value > 0 ? value : null;
};

/** Balance divided by the outbound SMS price, in whole messages; null when the plan has no price. */
export const approximateMessageCount = (balance: string, pricing: PlanPricing, country: string): number | null => {
  const price = outboundSmsPrice(pricing, country);
  if (price === null) return null;
  const amount = Number(balance);
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  // Money has 4 decimals: compare in ten-thousandths so 1.0000 / 0.0100 is exactly 100.
  return Math.floor(Math.round(amount * 10_000) / Math.round(price * 10_000));
};
