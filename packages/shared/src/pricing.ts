import type { PlanPricing } from './api/accounts.js';
import { formatMoney } from './api/money.js';

/*
 * Prices are exact: decimal strings in and out, integer arithmetic on ten-thousandths of a dollar
 * (the 4 decimals money has everywhere) in between. Binary floats never touch them.
 */

/** Ten-thousandths of a US dollar in one dollar. */
const UNITS_PER_DOLLAR = 10_000n;

/** '0.0079' → 79n (ten-thousandths of a dollar). Refuses more than 4 decimals. */
export function moneyToUnits(value: string): bigint {
  const formatted = formatMoney(value);
  const negative = formatted.startsWith('-');
  const units = BigInt(formatted.replace('-', '').replace('.', ''));
  return negative ? -units : units;
}

/** 79n → '0.0079'. */
export function unitsToMoney(units: bigint): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = magnitude / UNITS_PER_DOLLAR;
  const fraction = (magnitude % UNITS_PER_DOLLAR).toString().padStart(4, '0');
  return `${negative ? '-' : ''}${whole.toString()}.${fraction}`;
}

export interface PricedMessage {
  /** Segments of the text (countSegments); billed one SMS price each. */
  readonly segments: number;
  /** Media attached: the message goes as one MMS, billed one MMS price whatever its length. */
  readonly mms: boolean;
}

/** The plan has no price for this message: no entry for the country nor DEFAULT, or no MMS price there. */
export class MessagePriceUnavailableError extends Error {
  constructor(
    readonly country: string,
    readonly kind: 'sms' | 'mms',
  ) {
    super(`the plan has no ${kind.toUpperCase()} price for ${country}`);
    this.name = 'MessagePriceUnavailableError';
  }
}

/**
 * The price of one message to a country on a plan, 4 decimals ('0.0237'): segments × the SMS price, or
 * one MMS price when media is attached. A country without its own entry takes DEFAULT's; a country with
 * its own entry but no MMS price takes no MMS (its carriers take none), so that throws
 * MessagePriceUnavailableError rather than borrowing DEFAULT's.
 */
export function messagePrice(pricing: PlanPricing, country: string, message: PricedMessage): string {
  if (!Number.isSafeInteger(message.segments) || message.segments < 0) {
    throw new RangeError(`segments must be a whole number of at least 0, not ${String(message.segments)}`);
  }
  const code = country.trim().toUpperCase();
  const entry = pricing[code] ?? pricing.DEFAULT;
  const kind = message.mms ? 'mms' : 'sms';
  const price = message.mms ? entry?.mms?.outbound : entry?.sms.outbound;
  if (price === undefined) throw new MessagePriceUnavailableError(code, kind);
  const units = moneyToUnits(price);
  if (units < 0n) throw new RangeError(`a negative price in the plan for ${code}: ${price}`);
  return unitsToMoney(message.mms ? units : units * BigInt(message.segments));
}
