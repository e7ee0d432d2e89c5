import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CAMPAIGN_INACTIVE_MESSAGE, campaignInvalidReasonLabels, campaignInvalidReasons, formatMoney, type Campaign, type CampaignInvalidCounts } from '@parley/shared';
import { useId } from 'react';
import { DialogFooter } from '../../components/DialogFooter';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useCampaignPreview, useExecuteCampaign } from './queries';

/** The left-out contacts by reason, only the reasons that left someone out. */
export const InvalidCountRows = ({ counts }: { counts: Partial<CampaignInvalidCounts> }) => (
  <>
    {campaignInvalidReasons
      .filter((reason) => (counts[reason] ?? 0) > 0)
      .map((reason) => (
        <TableRow key={reason}>
          <TableCell sx={{ pl: 4 }}>{campaignInvalidReasonLabels[reason]}</TableCell>
          <TableCell align="right">{(counts[reason] ?? 0).toLocaleString()}</TableCell>
        </TableRow>
      ))}
  </>
);

/**
 * Execute Now preview: the contacts it would text now, the estimated price and who is left out. Below the
 * estimate the balance blocks execution ('Insufficient Credit').
 */
export const ExecutePreviewDialog = ({ accountId, campaign, onClose }: { accountId: string; campaign: Campaign; onClose: () => void }) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const preview = useCampaignPreview(accountId, campaign.id);
  const execute = useExecuteCampaign(accountId, campaign.id);
  const data = preview.data;
  const blocked = data === undefined || data.insufficientCredit || data.contacts === 0 || !campaign.active;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Execute Now: {campaign.name}</DialogTitle>
      <DialogContent>
        {preview.isPending && <CircularProgress aria-label="Loading the preview" />}
        {preview.isError && <ErrorAlert message={errorMessage(preview.error)} onRetry={() => void preview.refetch()} />}
        {data !== undefined && (
          <>
            {data.insufficientCredit && (
              <Alert severity="error" sx={{ mb: 2 }}>
                <AlertTitle>Insufficient Credit</AlertTitle>
                The balance is below the estimated price. Top up the balance to execute this campaign.
              </Alert>
            )}
            {!campaign.active && (
              <Alert severity="warning" sx={{ mb: 2 }}>
                {CAMPAIGN_INACTIVE_MESSAGE}
              </Alert>
            )}
            <Table size="small" aria-label="Preview">
              <TableBody>
                <TableRow>
                  <TableCell>Contacts</TableCell>
                  <TableCell align="right">{data.contacts.toLocaleString()}</TableCell>
                </TableRow>
                <TableRow>
                  <TableCell>Estimated Price</TableCell>
                  <TableCell align="right">${formatMoney(data.estimatedPrice)}</TableCell>
                </TableRow>
                <TableRow>
                  <TableCell>Left Out</TableCell>
                  <TableCell align="right">{data.invalidCount.toLocaleString()}</TableCell>
                </TableRow>
                <InvalidCountRows counts={data.invalidCounts} />
              </TableBody>
            </Table>
            {data.contacts === 0 && (
              <Typography color="text.secondary" sx={{ mt: 2 }}>
                No contact would get this message now.
              </Typography>
            )}
          </>
        )}
        {execute.isError && <ErrorAlert message={errorMessage(execute.error)} />}
      </DialogContent>
      <DialogFooter
        label="Execute"
        onCancel={onClose}
        disabled={blocked}
        pending={execute.isPending}
        onAction={() => {
          execute.mutate(null, {
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
