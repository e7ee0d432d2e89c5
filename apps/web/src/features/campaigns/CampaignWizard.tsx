import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { CAMPAIGN_SAVE_FAILED_TOAST, campaignTriggerLabels, type Campaign, type CampaignTriggerCode } from '@parley/shared';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/snackbarContext';
import { ContactsStep } from './ContactsStep';
import { FieldMappingStep } from './FieldMappingStep';
import { FileUploadStep } from './FileUploadStep';
import { GeneralStep } from './GeneralStep';
import { useSaveCampaign } from './queries';
import { ReportingStep } from './ReportingStep';
import { ScheduleStep } from './ScheduleStep';
import type { StepProps } from './stepProps';
import { SummaryStep } from './SummaryStep';
import { TemplateStep } from './TemplateStep';
import { WizardStepper } from './WizardStepper';
import {
  DISCARD_CAMPAIGN_MESSAGE,
  DISCARD_CAMPAIGN_TITLE,
  draftChanged,
  draftErrors,
  draftOf,
  firstStepWithErrors,
  newDraft,
  stepErrors,
  stepsOf,
  toSaveBody,
  type CampaignDraft,
} from './wizardState';

interface CampaignWizardProps {
  accountId: string;
  /** The campaign to edit, or the trigger of a new one. */
  editing: { campaign: Campaign } | { trigger: CampaignTriggerCode };
  onClose: () => void;
  onSaved: (campaign: Campaign, created: boolean) => void;
}

const renderStep = (step: string, props: StepProps): ReactNode => {
  switch (step) {
    case 'General':
      return <GeneralStep {...props} />;
    case 'Schedule':
      return <ScheduleStep {...props} />;
    case 'Select Contacts':
      return <ContactsStep {...props} />;
    case 'Design Template':
      return <TemplateStep {...props} />;
    case 'Reporting':
      return <ReportingStep {...props} />;
    case 'File Upload':
      return <FileUploadStep {...props} />;
    case 'Field Mapping':
      return <FieldMappingStep {...props} />;
    case 'Summary':
      return <SummaryStep {...props} />;
    default:
      return null;
  }
};

/**
 * Create/Edit Campaign: the trigger's steps. A new campaign moves on only when the step is valid;
 * an edited one moves freely. Save checks every step and opens the first one with a problem.
 */
export const CampaignWizard = ({ accountId, editing, onClose, onSaved }: CampaignWizardProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const existing = 'campaign' in editing ? editing.campaign : null;
  const [initial] = useState<CampaignDraft>(() => (existing === null ? newDraft('trigger' in editing ? editing.trigger : 'M') : draftOf(existing)));
  const [draft, setDraft] = useState<CampaignDraft>(initial);
  // Escape, a click beside the dialog and Cancel ask before throwing away what was entered.
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const requestClose = (): void => {
    if (save.isPending) return;
    if (draftChanged(initial, draft)) setConfirmingDiscard(true);
    else onClose();
  };
  const steps = stepsOf(draft.trigger);
  const [active, setActive] = useState(0);
  // Errors show on a step once the user tried to leave it (or to save), not while first filling it.
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const save = useSaveCampaign(accountId, existing?.id ?? null);
  const errors = useMemo(() => draftErrors(draft), [draft]);
  const step = steps[active] ?? 'General';
  const stepHasErrors = (name: string): boolean => Object.keys(stepErrors(errors, name)).length > 0;
  const shownErrors = checked.has(step) || step === 'Summary' ? stepErrors(errors, step) : {};

  const check = (names: readonly string[]): void => {
    setChecked((current) => new Set([...current, ...names]));
  };
  const next = (): void => {
    check([step]);
    if (stepHasErrors(step)) return;
    setActive((i) => Math.min(i + 1, steps.length - 1));
  };
  const submit = (): void => {
    check(steps);
    const broken = firstStepWithErrors(errors, steps);
    if (broken !== null) {
      setActive(steps.indexOf(broken));
      return;
    }
    save.mutate(toSaveBody(draft), {
      onSuccess: (campaign) => {
        snackbar.show(existing === null ? 'Campaign added' : 'Campaign saved');
        onSaved(campaign, existing === null);
      },
      onError: () => {
        snackbar.show(CAMPAIGN_SAVE_FAILED_TOAST);
      },
    });
  };
  const last = active === steps.length - 1;
  const props: StepProps = {
    accountId,
    draft,
    onChange: (patch) => { setDraft((current) => ({ ...current, ...patch })); },
    errors: shownErrors,
    disabled: save.isPending,
  };

  return (
    <>
      <Dialog open onClose={requestClose} aria-labelledby={titleId} fullWidth maxWidth="md">
        <DialogTitle id={titleId}>
          {existing === null ? 'Create Campaign' : 'Edit Campaign'} ({campaignTriggerLabels[draft.trigger]})
        </DialogTitle>
        <DialogContent>
          <WizardStepper
            steps={steps}
            active={active}
            editing={existing !== null}
            invalid={(name) => checked.has(name) && stepHasErrors(name)}
            onStep={setActive}
          />
          <Box sx={{ pt: 1 }} role="group" aria-label={step}>
            {renderStep(step, props)}
          </Box>
          {step === 'General' && (
            <FormControlLabel
              sx={{ mt: 1 }}
              control={<Switch checked={draft.active} onChange={(e) => { props.onChange({ active: e.target.checked }); }} disabled={save.isPending} />}
              label="Active"
            />
          )}
          {save.isError && (
            <Alert severity="error" variant="outlined" sx={{ mt: 2 }}>
              {CAMPAIGN_SAVE_FAILED_TOAST}: {errorMessage(save.error)}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={requestClose}>Cancel</Button>
          <Box sx={{ flex: 1 }} />
          <Button onClick={() => { setActive((i) => Math.max(i - 1, 0)); }} disabled={active === 0 || save.isPending}>
            Back
          </Button>
          {!last && (
            <Button onClick={next} disabled={save.isPending}>
              Next
            </Button>
          )}
          {(last || existing !== null) && (
            <Button variant="contained" onClick={submit} loading={save.isPending}>
              Save
            </Button>
          )}
        </DialogActions>
      </Dialog>
      {confirmingDiscard && (
        <ConfirmDialog
          title={DISCARD_CAMPAIGN_TITLE}
          message={DISCARD_CAMPAIGN_MESSAGE}
          confirmLabel="Discard"
          onConfirm={onClose}
          onCancel={() => { setConfirmingDiscard(false); }}
        />
      )}
    </>
  );
};
