import { sandboxCardSchema, type PaymentSource } from '@parley/shared';
import { z } from 'zod';

/** The title of the alert that lists what the Payment Details form still needs (spec, validation rules). */
export const INVALID_PAYMENT_DETAILS_TITLE = 'Invalid Payment Details';

/** The spec's texts for the card holder's details; address line 2 is optional. */
export const paymentDetailsMessages = {
  name: 'Please enter the registered card holders name',
  line1: 'Please enter the first line of address of the registered card holder',
  city: 'Please enter the city of the registered card holder',
  postalCode: 'Please enter the postal code of the registered card holder',
  country: 'Please enter the country of the registered card holder',
  cardNumber: 'Please enter the card number',
  expiry: 'Please enter the expiry date as MM/YY',
  cvc: 'Please enter the 3 or 4 digit security code',
} as const;

const needed = (message: string) => z.string().trim().min(1, { message });

/** MM/YY or MM/YYYY, a month 1 to 12. */
const EXPIRY_PATTERN = /^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/;

/** The expiry typed as MM/YY (or MM/YYYY) as a month and a four-digit year; null when it is not one. */
export const parseExpiry = (text: string): { month: number; year: number } | null => {
  const match = EXPIRY_PATTERN.exec(text.trim());
  if (!match) return null;
  const [, month = '', year = ''] = match;
  return { month: Number(month), year: year.length === 2 ? 2000 + Number(year) : Number(year) };
};

/** An expiry before this month has passed: the card cannot be saved. */
export const isExpired = (expiry: { month: number; year: number }, now: Date = new Date()): boolean =>
  expiry.year < now.getUTCFullYear() || (expiry.year === now.getUTCFullYear() && expiry.month < now.getUTCMonth() + 1);

/** The Payment Details form: the card holder (name and address) and the card. */
export const paymentDetailsSchema = z.object({
  name: needed(paymentDetailsMessages.name),
  line1: needed(paymentDetailsMessages.line1),
  line2: z.string().trim(),
  city: needed(paymentDetailsMessages.city),
  postalCode: needed(paymentDetailsMessages.postalCode),
  country: needed(paymentDetailsMessages.country),
  cardNumber: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, { message: paymentDetailsMessages.cardNumber })),
  expiry: z
    .string()
    .refine((value) => parseExpiry(value) !== null, { message: paymentDetailsMessages.expiry })
    .refine((value) => {
      const expiry = parseExpiry(value);
      return expiry === null || !isExpired(expiry);
    }, { message: 'This card has expired' }),
  cvc: z.string().trim().regex(/^\d{3,4}$/, { message: paymentDetailsMessages.cvc }),
});

export type PaymentDetailsForm = z.input<typeof paymentDetailsSchema>;
export type PaymentDetails = z.output<typeof paymentDetailsSchema>;

/** The card holder alone: with Stripe the card itself is in Stripe's fields, never in this form. */
export const cardHolderSchema = paymentDetailsSchema.pick({ name: true, line1: true, line2: true, city: true, postalCode: true, country: true });
export type CardHolderForm = z.input<typeof cardHolderSchema>;
export type CardHolder = z.output<typeof cardHolderSchema>;

/** The form with Stripe: the holder checked; the card fields of this form stay empty (Stripe's fields hold the card). */
export const stripeDetailsSchema = cardHolderSchema.extend({ cardNumber: z.string(), expiry: z.string(), cvc: z.string() });
export type StripeDetails = z.output<typeof stripeDetailsSchema>;

export const emptyPaymentDetails: PaymentDetailsForm = {
  name: '',
  line1: '',
  line2: '',
  city: '',
  postalCode: '',
  country: '',
  cardNumber: '',
  expiry: '',
  cvc: '',
};

/** The form's fields in the order they are shown, for the list under 'Invalid Payment Details'. */
export const paymentDetailsFields = ['name', 'line1', 'line2', 'city', 'postalCode', 'country', 'cardNumber', 'expiry', 'cvc'] as const;

/** What the form still needs, in the order of its fields, each message once. */
export const invalidPaymentDetails = (errors: Partial<Record<keyof PaymentDetailsForm, { message?: string } | undefined>>): string[] => [
  ...new Set(paymentDetailsFields.flatMap((field) => errors[field]?.message ?? [])),
];

/** The sandbox card form's body (POST /v1/billing/sandbox/cards) from the details. */
export const sandboxCardBody = (details: PaymentDetails): z.input<typeof sandboxCardSchema> => {
  const expiry = parseExpiry(details.expiry) ?? { month: 0, year: 0 };
  return { number: details.cardNumber, expMonth: expiry.month, expYear: expiry.year, cvc: details.cvc };
};

/** The card a save expects on file: its last 4 and expiry. */
export interface ExpectedCard {
  last4: string;
  month: number;
  year: number;
}

/** The card the sandbox's details describe; null when the expiry is not one. */
export const expectedCardOf = (details: PaymentDetails): ExpectedCard | null => {
  const expiry = parseExpiry(details.expiry);
  return expiry === null ? null : { last4: details.cardNumber.slice(-4), ...expiry };
};

/** The card on file is the one expected (its last 4 and expiry): the provider has confirmed it. */
export const isExpectedCard = (source: PaymentSource | null, expected: ExpectedCard | null): boolean =>
  source !== null &&
  expected !== null &&
  source.last4 === expected.last4 &&
  source.expiry.month === expected.month &&
  source.expiry.year === expected.year;

/** The card the details describe is the one on file (its last 4 and expiry): the provider has confirmed it. */
export const isCardOnFile = (source: PaymentSource | null, details: PaymentDetails): boolean => isExpectedCard(source, expectedCardOf(details));
