import { describe, expect, it } from 'vitest';
import { TRIAL_CHOOSE_PLAN_TEXT, TRIAL_LACKS, trialStatusText } from './trialPlan';

describe('the trial section of the Plan tab', () => {
  it('says what the trial is and the days left, or that it has ended', () => {
    expect(trialStatusText({ daysLeft: 15, expired: false })).toBe(
      'A trial lasts 15 days, with the trial credit to text real contacts. 15 days left.',
    );
    expect(trialStatusText({ daysLeft: 1, expired: false })).toMatch(/ 1 day left\.$/);
    expect(trialStatusText({ daysLeft: 0, expired: true })).toMatch(/This trial has ended\.$/);
    expect(trialStatusText({ daysLeft: 3, expired: true })).toMatch(/This trial has ended\.$/);
  });

  it('names what the trial lacks and how to leave it', () => {
    expect(TRIAL_LACKS).toEqual(['Auto responders', 'Links and custom domains', 'More phone numbers', 'Balance top-ups']);
    expect(TRIAL_CHOOSE_PLAN_TEXT).toBe('Choose a paid plan with Change Plan below; the card you add pays for it.');
  });
});
