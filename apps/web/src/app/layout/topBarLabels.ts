import { LOW_BALANCE_WARNING } from '@parley/shared';

/** A trial shows its remaining days, or Expired once they have run out. */
export const upgradeLabel = (trial: { daysLeft: number; expired: boolean }): string => {
  if (trial.expired || trial.daysLeft <= 0) return 'Expired';
  return `Upgrade (${trial.daysLeft} ${trial.daysLeft === 1 ? 'day' : 'days'} left)`;
};

/** Balances arrive as 4-decimal strings. */
export const isLowBalance = (balance: string): boolean => Number(balance) < LOW_BALANCE_WARNING;
