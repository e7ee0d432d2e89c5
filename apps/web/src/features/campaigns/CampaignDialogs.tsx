import { CAMPAIGN_EXECUTE_QUESTION, type Campaign, type CampaignTriggerCode } from '@parley/shared';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import { CampaignWizard } from './CampaignWizard';
import { ChooseTriggerDialog } from './ChooseTriggerDialog';
import { ExecutePreviewDialog } from './ExecutePreviewDialog';
import type { useRemoveCampaign } from './queries';
import { UploadFileNowDialog } from './UploadFileNowDialog';

/** The dialog the campaigns page shows, if any. */
export type CampaignDialog =
  | { kind: 'trigger' }
  | { kind: 'wizard'; editing: { campaign: Campaign } | { trigger: CampaignTriggerCode } }
  | { kind: 'ask'; campaign: Campaign }
  | { kind: 'execute'; campaign: Campaign }
  | { kind: 'remove'; campaign: Campaign }
  | null;

interface CampaignDialogsProps {
  accountId: string;
  dialog: CampaignDialog;
  canExecute: boolean;
  /** The page's remove, reset when a Remove button asks. */
  remove: ReturnType<typeof useRemoveCampaign>;
  onDialog: (dialog: CampaignDialog) => void;
}

/**
 * The campaigns page's dialogs: choose a trigger, the wizard, the question after saving a Manual or File Upload
 * campaign, its execution, and Remove.
 */
export const CampaignDialogs = ({ accountId, dialog, canExecute, remove, onDialog }: CampaignDialogsProps) => {
  const snackbar = useSnackbar();
  const close = (): void => { onDialog(null); };
  return (
    <>
      {dialog?.kind === 'trigger' && (
        <ChooseTriggerDialog onClose={close} onChoose={(trigger) => { onDialog({ kind: 'wizard', editing: { trigger } }); }} />
      )}
      {dialog?.kind === 'wizard' && (
        <CampaignWizard
          accountId={accountId}
          editing={dialog.editing}
          onClose={close}
          onSaved={(campaign) => {
            // After saving a Manual campaign, offer its execution (the file dialog for File Upload).
            onDialog(campaign.trigger.code !== 'S' && campaign.active && canExecute ? { kind: 'ask', campaign } : null);
          }}
        />
      )}
      {dialog?.kind === 'ask' && (
        <ConfirmDialog
          title={CAMPAIGN_EXECUTE_QUESTION}
          message={
            dialog.campaign.trigger.code === 'FU'
              ? `Upload a file now to execute "${dialog.campaign.name}"?`
              : `See who "${dialog.campaign.name}" would text now and what it would cost, then execute it?`
          }
          confirmLabel={dialog.campaign.trigger.code === 'FU' ? 'Upload File Now' : 'Execute Now'}
          onConfirm={() => { onDialog({ kind: 'execute', campaign: dialog.campaign }); }}
          onCancel={close}
        />
      )}
      {dialog?.kind === 'execute' &&
        (dialog.campaign.trigger.code === 'FU' ? (
          <UploadFileNowDialog accountId={accountId} campaign={dialog.campaign} onClose={close} />
        ) : (
          <ExecutePreviewDialog accountId={accountId} campaign={dialog.campaign} onClose={close} />
        ))}
      {dialog?.kind === 'remove' && (
        <RemoveDialog
          title="Remove Campaign"
          message={`Remove the campaign "${dialog.campaign.name}" and its executions?`}
          removal={remove}
          onConfirm={() => {
            remove.mutate(dialog.campaign.id, {
              onSuccess: () => {
                close();
                snackbar.show('Campaign removed');
              },
            });
          }}
          onCancel={close}
        />
      )}
    </>
  );
};
