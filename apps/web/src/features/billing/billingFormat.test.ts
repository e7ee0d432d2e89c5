import { describe, expect, it } from 'vitest';
import { billingDateText, brandName, cardExpiryText, invoiceStatusText, invoiceTotalText, monthlyChargeText, paymentCardText } from './billingFormat';

describe('billing texts', () => {
  it('shows the card on file with brand, last 4 and expiry, or No Payment Setup', () => {
    expect(paymentCardText({ brand: 'visa', last4: '4242', expiry: { month: 3, year: 2029 } })).toBe('Visa ending 4242, expires 03/2029');
    expect(paymentCardText({ brand: 'mastercard', last4: '4444', expiry: { month: 12, year: 2031 } })).toBe(
      'Mastercard ending 4444, expires 12/2031',
    );
    expect(paymentCardText(null)).toBe('No Payment Setup');
  });

  it('keeps an unknown brand as the provider spells it', () => {
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('Cartes Bancaires')).toBe('Cartes Bancaires');
    expect(cardExpiryText({ month: 1, year: 2030 })).toBe('01/2030');
  });

  it('shows the monthly charge to 4 decimals, in USD plus local taxes', () => {
    expect(monthlyChargeText('29')).toBe('$29.0000 USD plus local taxes');
    expect(monthlyChargeText('99.5')).toBe('$99.5000 USD plus local taxes');
    expect(monthlyChargeText('0.0000')).toBe('$0.0000 USD plus local taxes');
  });

  it('writes dates as a day in the given time zone', () => {
    expect(billingDateText('2026-12-31T23:30:00.000Z', 'UTC')).toBe('Dec 31, 2026');
    expect(billingDateText('2026-12-31T23:30:00.000Z', 'Asia/Tokyo')).toBe('Jan 1, 2027');
  });

  it('writes an invoice total in dollars, a credit with its sign first', () => {
    expect(invoiceTotalText('35.0000')).toBe('$35.0000');
    expect(invoiceTotalText('-18.07')).toBe('-$18.0700');
    expect(invoiceTotalText('0.0000')).toBe('$0.0000');
  });

  it("writes a provider's invoice status as a word", () => {
    expect(invoiceStatusText('paid')).toBe('Paid');
    expect(invoiceStatusText('payment_failed')).toBe('Payment failed');
    expect(invoiceStatusText('')).toBe('');
  });
});
