import { formatMoney, type CatalogPlan } from '@parley/shared';

/** The plan pricing table pages by 10, 20 or 50 (spec constants). */
export const PLAN_PRICING_PAGE_SIZES = [10, 20, 50];

/** What the segment-understanding confirmation says before a plan is changed. */
export const SEGMENT_EXPLANATION =
  'Messages are billed per segment, not per message. A text of up to 160 plain characters is one segment; longer texts, and texts with emoji or other special characters (70 a segment), are sent as several segments and billed as several.';
export const SEGMENT_UNDERSTANDING_LABEL = 'I understand that each message is billed per segment';

/** Money as numbers of ten-thousandths, to compare prices without floats. */
const units = (money: string): bigint => {
  const [whole = '0', fraction = ''] = formatMoney(money).replace('-', '').split('.');
  const value = BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0'));
  return money.trim().startsWith('-') ? -value : value;
};

/** The plans to compare: the free ones hidden, cheapest first (the server sends them so; a cached list may not). */
export const comparedPlans = (plans: readonly CatalogPlan[]): CatalogPlan[] =>
  plans
    .filter((plan) => units(plan.price) > 0n)
    .sort((a, b) => {
      const diff = units(a.price) - units(b.price);
      return diff === 0n ? a.name.localeCompare(b.name) : diff < 0n ? -1 : 1;
    });

/** The SMS segments a plan's monthly price buys, and MMS when it prices them. */
export const includedSegmentsText = (plan: CatalogPlan): string => {
  const { sms, mms } = plan.includedSegments;
  const smsText = `${sms.toLocaleString('en-US')} SMS`;
  return mms === null ? smsText : `${smsText} or ${mms.toLocaleString('en-US')} MMS`;
};

/** The outbound price per segment in the plan's segment country (or its DEFAULT), to 4 decimals. */
export const segmentPriceText = (plan: CatalogPlan, kind: 'sms' | 'mms'): string => {
  const pricing = plan.pricing[plan.includedSegments.country] ?? plan.pricing.DEFAULT;
  const price = kind === 'sms' ? pricing?.sms.outbound : pricing?.mms?.outbound;
  return price === undefined ? '—' : `$${formatMoney(price)}`;
};

export const planPriceText = (plan: Pick<CatalogPlan, 'price'>): string => `$${formatMoney(plan.price)} / month`;
