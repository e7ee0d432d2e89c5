import { formatMoney, NO_PAYMENT_SETUP, type PaymentSource } from '@parley/shared';

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** A provider's card brand as people write it ('visa' is Visa); an unknown brand keeps its own spelling. */
export const brandName = (brand: string): string => BRAND_NAMES[brand.toLowerCase()] ?? brand;

/** Expiry month/year as printed on a card: 12/2029. */
export const cardExpiryText = (expiry: PaymentSource['expiry']): string => `${String(expiry.month).padStart(2, '0')}/${String(expiry.year)}`;

/** The Plan tab's card: brand, last 4 digits and expiry, or 'No Payment Setup'. */
export const paymentCardText = (source: PaymentSource | null): string =>
  source === null ? NO_PAYMENT_SETUP : `${brandName(source.brand)} ending ${source.last4}, expires ${cardExpiryText(source.expiry)}`;

/** A monthly charge: USD to 4 decimals, plus local taxes. */
export const monthlyChargeText = (price: string): string => `$${formatMoney(price)} USD plus local taxes`;

/** An invoice's total in dollars; a credit (a prorated downgrade) is negative: -$18.0700. */
export const invoiceTotalText = (total: string): string => {
  const amount = formatMoney(total);
  return amount.startsWith('-') ? `-$${amount.slice(1)}` : `$${amount}`;
};

/** A day as the Plan tab and the Invoices tab show it (Dec 2, 2026), in the viewer's time zone unless told. */
export const billingDateText = (iso: string, timeZone?: string): string =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', ...(timeZone === undefined ? {} : { timeZone }) });

/** An invoice's status as a word: 'paid' is Paid, 'payment_failed' is Payment failed. */
export const invoiceStatusText = (status: string): string => {
  const words = status.replace(/[_-]+/g, ' ').trim();
  return words === '' ? '' : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};
