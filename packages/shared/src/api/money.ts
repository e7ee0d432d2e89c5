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
