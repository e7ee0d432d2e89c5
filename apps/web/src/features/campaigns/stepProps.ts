import type { CampaignDraft, DraftErrors } from './wizardState';

/** What every step of the campaign wizard gets: the draft, a way to change it, and its own errors. */
export interface StepProps {
  accountId: string;
  draft: CampaignDraft;
  onChange: (patch: Partial<CampaignDraft>) => void;
  errors: DraftErrors;
  disabled: boolean;
}
