import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import {
  can,
  JOB_REPORT_TITLE,
  RESEND_FAILED_LABEL,
  RESEND_FAILED_QUESTION,
  type CampaignExecution,
  type CampaignJobReport,
} from '@parley/shared';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import { MessageReportErrors, MessageReportInvalid } from './MessageReportLists';
import { MessageReportStatistics } from './MessageReportStatistics';
import { useCampaignJobReport, useResendFailed } from './reportQueries';

const statusChip = (status: CampaignJobReport['job']['status']) => {
  switch (status) {
    case 'running':
      return <Chip size="small" color="info" label="Sending" />;
    case 'done':
      return <Chip size="small" color="success" label="Done" />;
    case 'failed':
      return <Chip size="small" color="error" label="Failed" />;
  }
};

const recipients = (n: number): string => `${n.toLocaleString()} ${n === 1 ? 'recipient' : 'recipients'}`;

/** The execution a resend started, as its row in the executions table would show it. */
const ResentAlert = ({ execution, onOpen }: { execution: CampaignExecution; onOpen: () => void }) => (
  <Alert
    severity="success"
    sx={{ mb: 2 }}
    action={
      <Button color="inherit" size="small" onClick={onOpen}>
        Open Its Report
      </Button>
    }
  >
    A new execution started at {new Date(execution.created.at).toLocaleString()}: {recipients(execution.recipients)} to text
    {execution.invalidCount > 0 && `, ${execution.invalidCount.toLocaleString()} left out`}.
  </Alert>
);

/**
 * The job report of a campaign execution (the dialog 'Message Report'): when it ran, its error, its
 * messages by status (outgoing, or the replies since), why messages failed, the contacts it left out, and
 * for those who may execute campaigns, resending the failed messages as a new execution.
 */
export const MessageReportDialog = ({ accountId, jobId, onClose }: { accountId: string; jobId: string; onClose: () => void }) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const { account } = useSession();
  const canExecute = account !== null && can(account.user.role, 'campaigns.execute');
  const [shownId, setShownId] = useState(jobId);
  const [confirming, setConfirming] = useState(false);
  const [resent, setResent] = useState<CampaignExecution | null>(null);
  const report = useCampaignJobReport(accountId, shownId);
  const resend = useResendFailed(accountId, shownId);
  const data = report.data;
  const resendable = data?.resendable ?? 0;

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{JOB_REPORT_TITLE}</DialogTitle>
      <DialogContent>
        {report.isPending && <CircularProgress aria-label="Loading the report" />}
        {report.isError && <ErrorAlert message={errorMessage(report.error)} onRetry={() => void report.refetch()} />}
        {resent !== null && (
          <ResentAlert
            execution={resent}
            onOpen={() => {
              setShownId(resent.id);
              setResent(null);
              resend.reset();
            }}
          />
        )}
        {data !== undefined && (
          <>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 2 }}>
              <Typography>Executed {new Date(data.job.created.at).toLocaleString()}</Typography>
              {statusChip(data.job.status)}
            </Box>
            {data.job.error !== null && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {data.job.error.description}
              </Alert>
            )}
            <MessageReportStatistics statistics={data.statistics} />
            <MessageReportErrors errors={data.errors} />
            <MessageReportInvalid invalid={data.job.invalid} count={data.job.invalidCount} />
            {canExecute && resendable > 0 && data.job.status !== 'running' && (
              <Typography color="text.secondary" sx={{ mt: 3 }}>
                {recipients(resendable)} can be sent the message again.
              </Typography>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {canExecute && (
          <Button
            variant="contained"
            disabled={data === undefined || resendable === 0 || data.job.status === 'running'}
            onClick={() => {
              resend.reset();
              setConfirming(true);
            }}
          >
            {RESEND_FAILED_LABEL}
          </Button>
        )}
      </DialogActions>
      {confirming && (
        <ConfirmDialog
          title={RESEND_FAILED_QUESTION}
          message={`Send the message of this execution again to ${recipients(resendable)} whose message failed or was not sent? It runs as a new execution of the campaign and is charged to the balance.`}
          confirmLabel="Resend"
          pending={resend.isPending}
          error={resend.isError ? <ErrorAlert message={errorMessage(resend.error)} /> : undefined}
          onConfirm={() => {
            resend.mutate(undefined, {
              onSuccess: (execution) => {
                setConfirming(false);
                setResent(execution);
                snackbar.show('Failed messages are being resent');
              },
            });
          }}
          onCancel={() => {
            setConfirming(false);
          }}
        />
      )}
    </Dialog>
  );
};
