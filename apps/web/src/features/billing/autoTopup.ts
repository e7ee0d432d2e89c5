import { AUTO_TOPUP_AMOUNT_OPTIONS, AUTO_TOPUP_BELOW_OPTIONS, type Account, type AutoTopup } from '@parley/shared';

/** The rule as the account record carries it (options.autotopup); null or absent: off. */
export type AccountAutoTopup = NonNullable<Account['options']['autotopup']>;

/** The dialog's 'enabled' field, kept as the text the spec names ('true' or 'false'). */
export type AutoTopupEnabled = 'true' | 'false';

export interface AutoTopupForm {
  enabled: AutoTopupEnabled;
  below: number;
  amount: number;
}

export const autoTopupBelowOptions: readonly number[] = AUTO_TOPUP_BELOW_OPTIONS;
export const autoTopupAmountOptions: readonly number[] = AUTO_TOPUP_AMOUNT_OPTIONS;

/** What the dialog offers when auto top-up is off (docs/decisions.md): top up by $50 when below $10. */
export const DEFAULT_AUTO_TOPUP_BELOW = 10;
export const DEFAULT_AUTO_TOPUP_AMOUNT = 50;

export const isAutoTopupBelow = (value: unknown): value is number => autoTopupBelowOptions.includes(value as number);
export const isAutoTopupAmount = (value: unknown): value is number => autoTopupAmountOptions.includes(value as number);

/** USD as the options show it: whole dollars with thousands separators ('$1,000'). */
export const dollars = (amount: number | string): string => `$${Number(amount).toLocaleString('en-US')}`;

/** The Plan tab's line: 'Off', or 'Top up by $50 when below $10' (and whether a failed payment stopped it). */
export const autoTopupSummary = (rule: AccountAutoTopup | null | undefined): string => {
  if (rule == null) return 'Off';
  const text = `Top up by ${dollars(rule.amount)} when below ${dollars(rule.below)}`;
  return rule.stopped ? `${text} (stopped after a failed payment; save it again or change the card to restart it)` : text;
};

/** The dialog's starting values: the account's rule, or off with the defaults ready to switch on. */
export const autoTopupFormOf = (rule: AccountAutoTopup | null | undefined): AutoTopupForm => {
  if (rule == null) return { enabled: 'false', below: DEFAULT_AUTO_TOPUP_BELOW, amount: DEFAULT_AUTO_TOPUP_AMOUNT };
  const below = Number(rule.below);
  const amount = Number(rule.amount);
  return {
    enabled: 'true',
    below: isAutoTopupBelow(below) ? below : DEFAULT_AUTO_TOPUP_BELOW,
    amount: isAutoTopupAmount(amount) ? amount : DEFAULT_AUTO_TOPUP_AMOUNT,
  };
};

export interface AutoTopupRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: { below: string; amount: string };
}

/**
 * Save: below and amount only when enabled is 'true' (POST, or PUT over a rule that exists); otherwise a
 * removal (DELETE), as the spec says.
 */
export const autoTopupRequest = (accountId: string, form: AutoTopupForm, exists: boolean): AutoTopupRequest => {
  const path = `/v1/accounts/${accountId}/autotopup`;
  if (form.enabled !== 'true') return { method: 'DELETE', path };
  // Decimal strings, as money travels everywhere else.
  return { method: exists ? 'PUT' : 'POST', path, body: { below: String(form.below), amount: String(form.amount) } };
};

/** What POST, PUT and DELETE .../autotopup answer. */
export interface AutoTopupAnswer {
  autotopup: { below: AutoTopup['below']; amount: AutoTopup['amount'] } | null;
  stopped: boolean;
}

/** The account record's options.autotopup after a save. */
export const accountAutoTopupOf = (answer: AutoTopupAnswer): AccountAutoTopup | null =>
  answer.autotopup === null ? null : { ...answer.autotopup, stopped: answer.stopped };

export const autoTopupSavedMessage = (rule: AccountAutoTopup | null): string =>
  rule === null ? 'Auto top-up turned off' : `Auto top-up on: ${autoTopupSummary(rule).replace(/^Top/, 'top')}`;
