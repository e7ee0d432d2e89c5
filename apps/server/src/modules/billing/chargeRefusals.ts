import { TRIAL_EXPIRED_MESSAGE } from '@parley/shared';
import { AppError } from '../../platform/errors.js';

/**
 * A charge the account may not make; nothing was charged. Both refusals answer 402, and every path that
 * charges (a send, a campaign's batch, a lookup, a notification text) handles them alike: a send is refused,
 * a campaign stops with the message, an optional extra (the number-type lookup) is skipped.
 */
export class ChargeRefusedError extends AppError {}

export const INSUFFICIENT_BALANCE_MESSAGE = 'Insufficient Credit';

/** A debit the balance cannot cover. */
export class InsufficientBalanceError extends ChargeRefusedError {
  constructor() {
    super(402, 'bad_request', INSUFFICIENT_BALANCE_MESSAGE);
    this.name = 'InsufficientBalanceError';
  }
}

/** The account is on a trial plan that ran out (docs/billing.md, Trial); choosing a plan lifts it. */
export class TrialExpiredError extends ChargeRefusedError {
  constructor() {
    super(402, 'trial_expired', TRIAL_EXPIRED_MESSAGE);
    this.name = 'TrialExpiredError';
  }
}
