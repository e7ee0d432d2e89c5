import { TRIAL_DAYS } from '@parley/shared';

/*
 * What the Plan tab tells a trial account (the top bar's Upgrade button opens it). Plan changes come with
 * billing; until then the text says how a paid plan is had on this server today, and offers no button that
 * would do nothing (docs/decisions.md, "The Upgrade button").
 */

/** What a trial account does not get: the entries `showsPaidPlanFeatures`, `showsTopup` and `showsAddPhoneNumber` hide. */
export const TRIAL_LACKS = ['Auto responders', 'Links and custom domains', 'More phone numbers', 'Balance top-ups'] as const;

/** The paid plans of the catalog (apps/server/src/modules/billing/plans.ts), cheapest first. */
export const PAID_PLAN_NAMES = ['Starter', 'Growth', 'Scale'] as const;

export const TRIAL_NO_PLAN_CHANGE_TEXT = 'Changing the plan from Parley is not available yet: it comes with billing.';

export const TRIAL_OPERATOR_TEXT = `On this server, its operator puts an account on a paid plan (${PAID_PLAN_NAMES.join(', ')}) from the command line. This creates a new account on that plan; this trial account stays as it is:`;

export const trialOperatorCommand = (ownerEmail: string): string =>
  `npm run parley -- create-account --owner ${ownerEmail} --name "Account name" --plan ${PAID_PLAN_NAMES[0].toLowerCase()}`;

/** What the trial is and how long it has left. */
export function trialStatusText(trial: { daysLeft: number; expired: boolean }): string {
  const what = `A trial lasts ${String(TRIAL_DAYS)} days, with the trial credit to text real contacts.`;
  if (trial.expired || trial.daysLeft <= 0) return `${what} This trial has ended.`;
  return `${what} ${String(trial.daysLeft)} ${trial.daysLeft === 1 ? 'day' : 'days'} left.`;
}
