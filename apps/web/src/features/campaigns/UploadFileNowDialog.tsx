import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CAMPAIGN_INACTIVE_MESSAGE, importFieldLabels, isImportField, type Campaign, type CampaignFileRows } from '@parley/shared';
import { useId, useState } from 'react';
import { DialogFooter } from '../../components/DialogFooter';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { campaignFileRows } from './campaignFile';
import { useExecuteCampaign } from './queries';
import { ChooseCsvButton } from './ChooseCsvButton';

/** 'Upload File Now': a CSV whose rows, through the campaign's field mappings, are this execution's audience. */
export const UploadFileNowDialog = ({ accountId, campaign, onClose }: { accountId: string; campaign: Campaign; onClose: () => void }) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const execute = useExecuteCampaign(accountId, campaign.id);
  const [file, setFile] = useState<{ name: string; rows: CampaignFileRows } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const mobileColumns = campaign.fieldMappings.filter((m) => m.field === 'mobile').map((m) => m.column);

  const choose = async (chosen: File): Promise<void> => {
    execute.reset();
    const reading = campaignFileRows(new Uint8Array(await chosen.arrayBuffer()), campaign.fieldMappings);
    if (!reading.ok) {
      setFile(null);
      setProblem(reading.message);
      return;
    }
    if (mobileColumns.every((c) => reading.missing.includes(c))) {
      setFile(null);
      setProblem(`The file has no mobile column (${mobileColumns.join(', ')}).`);
      return;
    }
    setProblem(null);
    setMissing(reading.missing);
    setFile({ name: chosen.name, rows: reading.rows });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Upload File Now: {campaign.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {!campaign.active && <Alert severity="warning">{CAMPAIGN_INACTIVE_MESSAGE}</Alert>}
          <Typography color="text.secondary">
            Each row of the CSV file creates or updates its contact and is sent the message. Mapped columns:{' '}
            {campaign.fieldMappings.map((m) => `${m.column} → ${isImportField(m.field) ? importFieldLabels[m.field] : m.field}`).join(', ')}.
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <ChooseCsvButton disabled={execute.isPending} onFile={(chosen) => void choose(chosen)} />
            <Typography>{file === null ? 'No file chosen' : `${file.name}: ${file.rows.length.toLocaleString()} rows`}</Typography>
          </Stack>
          {missing.length > 0 && file !== null && (
            <Alert severity="warning">The file has no column {missing.join(', ')}: those fields are left as they are.</Alert>
          )}
          {problem !== null && <Alert severity="error">{problem}</Alert>}
          {execute.isError && <ErrorAlert message={errorMessage(execute.error)} />}
        </Stack>
      </DialogContent>
      <DialogFooter
        label="Execute"
        onCancel={onClose}
        disabled={file === null || !campaign.active}
        pending={execute.isPending}
        onAction={() => {
          if (file === null) return;
          execute.mutate(file.rows, {
            onSuccess: () => {
              snackbar.show('Campaign executed');
              onClose();
            },
          });
        }}
      />
    </Dialog>
  );
};
