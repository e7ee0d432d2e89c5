import { describe, expect, it } from 'vitest';
import {
  emptyPaymentDetails,
  invalidPaymentDetails,
  expectedCardOf,
  isCardOnFile,
  isExpectedCard,
  isExpired,
  parseExpiry,
  paymentDetailsSchema,
  sandboxCardBody,
  type PaymentDetailsForm,
} from './paymentDetails';

const filled: PaymentDetailsForm = {
  name: 'Ada Lovelace',
  line1: '12 St James Square',
  line2: '',
  city: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'United Kingdom',
  cardNumber: '4242 4242 4242 4242',
  expiry: '12/35',
  cvc: '123',
};

const messagesOf = (form: PaymentDetailsForm): string[] => {
  const result = paymentDetailsSchema.safeParse(form);
  if (result.success) return [];
  const errors: Partial<Record<keyof PaymentDetailsForm, { message: string }>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof PaymentDetailsForm;
    errors[field] ??= { message: issue.message };
  }
  return invalidPaymentDetails(errors);
};

describe('the Payment Details form', () => {
  it("asks for the card holder's details in the spec's words, line 2 optional", () => {
    expect(messagesOf({ ...emptyPaymentDetails, cardNumber: filled.cardNumber, expiry: filled.expiry, cvc: filled.cvc })).toEqual([
      'Please enter the registered card holders name',
      'Please enter the first line of address of the registered card holder',
      'Please enter the city of the registered card holder',
      'Please enter the postal code of the registered card holder',
      'Please enter the country of the registered card holder',
    ]);
    expect(messagesOf({ ...filled, name: '   ' })).toEqual(['Please enter the registered card holders name']);
    expect(messagesOf(filled)).toEqual([]);
    expect(messagesOf({ ...filled, line2: 'Flat 2' })).toEqual([]);
  });

  it('refuses a card number, expiry or security code that is not one', () => {
    expect(messagesOf({ ...filled, cardNumber: '4242' })).toEqual(['Please enter the card number']);
    expect(messagesOf({ ...filled, cardNumber: '4242 4242 4242 424x' })).toEqual(['Please enter the card number']);
    expect(messagesOf({ ...filled, expiry: '13/30' })).toEqual(['Please enter the expiry date as MM/YY']);
    expect(messagesOf({ ...filled, expiry: '01/20' })).toEqual(['This card has expired']);
    expect(messagesOf({ ...filled, cvc: '12' })).toEqual(['Please enter the 3 or 4 digit security code']);
  });

  it('reads MM/YY and MM/YYYY expiries', () => {
    expect(parseExpiry('12/35')).toEqual({ month: 12, year: 2035 });
    expect(parseExpiry(' 3 / 2031 ')).toEqual({ month: 3, year: 2031 });
    expect(parseExpiry('00/30')).toBeNull();
    expect(parseExpiry('12-30')).toBeNull();
    const now = new Date('2026-12-02T00:00:00Z');
    expect(isExpired({ month: 12, year: 2026 }, now)).toBe(false);
    expect(isExpired({ month: 11, year: 2026 }, now)).toBe(true);
    expect(isExpired({ month: 1, year: 2025 }, now)).toBe(true);
  });

  it("makes the sandbox card form's body and knows the card once it is on file", () => {
    const details = paymentDetailsSchema.parse(filled);
    expect(sandboxCardBody(details)).toEqual({ number: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
    expect(isCardOnFile({ brand: 'visa', last4: '4242', expiry: { month: 12, year: 2035 } }, details)).toBe(true);
    expect(isCardOnFile({ brand: 'visa', last4: '4242', expiry: { month: 11, year: 2035 } }, details)).toBe(false);
    expect(isCardOnFile({ brand: 'mastercard', last4: '4444', expiry: { month: 12, year: 2035 } }, details)).toBe(false);
    expect(isCardOnFile(null, details)).toBe(false);
  });
});

describe('the card expected on file', () => {
  it("is the details' last 4 and expiry, and matches the card the provider shows", () => {
    const details = paymentDetailsSchema.parse(filled);
    expect(expectedCardOf(details)).toEqual({ last4: '4242', month: 12, year: 2035 });
    const source = { brand: 'visa', last4: '4242', expiry: { month: 12, year: 2035 } };
    expect(isExpectedCard(source, { last4: '4242', month: 12, year: 2035 })).toBe(true);
    expect(isExpectedCard(source, { last4: '4242', month: 11, year: 2035 })).toBe(false);
    expect(isExpectedCard(source, { last4: '0002', month: 12, year: 2035 })).toBe(false);
    expect(isExpectedCard(null, { last4: '4242', month: 12, year: 2035 })).toBe(false);
    expect(isExpectedCard(source, null)).toBe(false);
  });
});
