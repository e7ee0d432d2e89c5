import { formatMoney, NUMBER_TYPE_CHECK_PRICE, type NumberTypeCheck } from '@parley/shared';

const contactsWord = (n: number): string => (n === 1 ? 'contact' : 'contacts');

/** `count` times a price, as dollars and cents; exact (ten-thousandths of a dollar as integers). */
export function priceOf(count: number, price: string = NUMBER_TYPE_CHECK_PRICE): string {
  const total = BigInt(formatMoney(price).replace('.', '')) * BigInt(count);
  const cents = (total + 99n) / 100n;
  return `$${String(cents / 100n)}.${String(cents % 100n).padStart(2, '0')}`;
}

/** What the dialog asks before the check: what it does and the most it may cost. */
export const checkNumberTypesQuestion = (count: number): string =>
  `Look up the type (mobile, landline, VoIP …) of the ${String(count)} selected ${contactsWord(count)}' numbers? ` +
  `Each contact without a type costs ${priceOf(1)} from the balance, at most ${priceOf(count)} in all; contacts checked before are free.`;

export const isFinished = (check: NumberTypeCheck): boolean => check.status === 'completed' || check.status === 'failed';

export const numberTypeProgressText = (check: NumberTypeCheck): string =>
  `${String(check.processed)} of ${String(check.total)} ${contactsWord(check.total)} looked at`;

/** The counts of a check, the ones that are not zero, as lines. */
export function numberTypeSummary(check: NumberTypeCheck): string[] {
  const lines: [number, string][] = [
    [check.checked, 'given a type'],
    [check.alreadyChecked, 'had a type already (no charge)'],
    [check.skipped, 'skipped: no valid number, or removed'],
    [check.notPaid, 'not checked: the balance could not pay'],
  ];
  return [
    ...(check.status === 'failed' ? ['The check stopped before it finished; the contacts counted here were checked.'] : []),
    ...lines.filter(([n]) => n > 0).map(([n, what]) => `${String(n)} ${contactsWord(n)} ${what}`),
  ];
}
