import { TRIAL_DAYS } from '@parley/shared';

/*
 * What the Plan tab tells a trial account: what the trial is, its days left and what it lacks. A paid plan
 * is chosen with Change Plan (the top bar's Upgrade opens it too; docs/decisions.md, "The Upgrade button").
 */

/** What a trial account does not get: the entries `showsPaidPlanFeatures`, `showsTopup` and `showsAddPhoneNumber` hide. */
export const TRIAL_LACKS = ['Auto responders', 'Links and custom domains', 'More phone numbers', 'Balance top-ups'] as const;

export const TRIAL_CHOOSE_PLAN_TEXT = 'Choose a paid plan with Change Plan below; the card you add pays for it.';

/** What the trial is and how long it has left. */
export function trialStatusText(trial: { daysLeft: number; expired: boolean }): string {
  const what = `A trial lasts ${String(TRIAL_DAYS)} days, with the trial credit to text real contacts.`;
  if (trial.expired || trial.daysLeft <= 0) return `${what} This trial has ended.`;
  return `${what} ${String(trial.daysLeft)} ${trial.daysLeft === 1 ? 'day' : 'days'} left.`;
}
