import { z } from 'zod';

/** Money on the wire: US dollars as a decimal string with exactly 4 decimals ('5.0000'). */
export const MONEY_PATTERN = /^-?\d+\.\d{4}$/;

export const moneySchema = z.string().regex(MONEY_PATTERN).meta({ id: 'Money', description: 'USD, 4 decimals' });

/**
 * A decimal string ('5', '5.5', '5.00001' is refused) written with exactly 4 decimals, by string
 * operations only: binary floats never touch money.
 */
export function formatMoney(value: string): string {
  const match = /^(-?)(\d+)(?:\.(\d{0,4})0*)?$/.exec(value.trim());
  if (!match) throw new Error(`not a decimal amount with at most 4 decimals: ${value}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const digits = whole.replace(/^0+(?=\d)/, '');
  const isZero = /^0+$/.test(digits) && /^0*$/.test(fraction);
  return `${isZero ? '' : sign}${digits}.${fraction.padEnd(4, '0')}`;
}

/** The largest amount moneyAsNumber writes: 15 significant digits (11 + 4 decimals) survive a double exactly. */
const MONEY_AS_NUMBER_MAX_DIGITS = 15;

/**
 * An amount as a JSON number, where the hosted product's contract has a number (a message's price,
 * docs/decisions.md). Nothing is computed with it: a decimal of at most 15 significant digits is parsed to
 * the nearest double, and JSON writes that double back as the shortest text that reads as it, which is the
 * same decimal ('0.0079' → 0.0079, '0.0100' → 0.01). A larger amount is refused rather than rounded.
 */
export function moneyAsNumber(value: string): number {
  const exact = formatMoney(value);
  const digits = exact.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  if (digits.length > MONEY_AS_NUMBER_MAX_DIGITS) throw new Error(`too many digits to write as a JSON number exactly: ${value}`);
  return Number(exact);
}
