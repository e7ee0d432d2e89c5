import { zodResolver } from '@hookform/resolvers/zod';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DAILY_COUNTS_DEFAULT_DAYS,
  messagesReportQuerySchema,
  REPORT_DETAILED_LABEL,
  REPORT_LINK_TTL_DAYS,
  REPORT_OPTED_OUT_LABEL,
  REPORT_SUMMARY_LABEL,
  reportEmailedMessage,
  type MessagesReportQuery,
} from '@parley/shared';
import { useId, useState } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useProfile } from '../../session/queries';
import { useDownloadReport, useRequestDetailedReport, type ReportDownload } from './reportDownloads';

/** Asks where the detailed report goes (the signed-in user's address to start with) and queues it. */
const DetailedReportDialog = ({ accountId, onClose }: { accountId: string; onClose: () => void }) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const profile = useProfile();
  const request = useRequestDetailedReport(accountId);
  const { register, handleSubmit, formState } = useForm<MessagesReportQuery>({
    resolver: zodResolver(messagesReportQuerySchema),
    values: { email: profile.data?.email ?? '' },
    resetOptions: { keepDirtyValues: true },
  });
  const submit: SubmitHandler<MessagesReportQuery> = ({ email }) => {
    request.mutate(email, {
      onSuccess: (accepted) => {
        snackbar.show(reportEmailedMessage(accepted.email));
        onClose();
      },
    });
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{REPORT_DETAILED_LABEL} Report</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Every message of the account, as a CSV file. It is prepared in the background and a link to download it is
            e-mailed to this address; the link works for {REPORT_LINK_TTL_DAYS} days.
          </DialogContentText>
          <TextField
            label="Email"
            type="email"
            required
            fullWidth
            autoFocus
            autoComplete="email"
            disabled={request.isPending}
            {...register('email')}
            error={!!formState.errors.email}
            helperText={formState.errors.email?.message}
          />
          {request.isError && (
            <Box sx={{ mt: 2 }}>
              <ErrorAlert message={errorMessage(request.error)} />
            </Box>
          )}
        </DialogContent>
        <DialogFooter label="Send Report" onCancel={onClose} cancelDisabled={request.isPending} pending={request.isPending} />
      </form>
    </Dialog>
  );
};

/** Account settings' report downloads (Summary, Detailed, Opted Out); administrators only. */
export const ReportDownloadsSection = ({ accountId }: { accountId: string }) => {
  const download = useDownloadReport(accountId);
  const [asking, setAsking] = useState(false);
  const downloading = (report: ReportDownload): boolean => download.isPending && download.variables === report;
  return (
    <Box component="section" aria-labelledby="report-downloads-title">
      <Typography id="report-downloads-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Report Downloads
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {REPORT_SUMMARY_LABEL}: messages, segments, outcomes, opt-outs and spend per day (UTC) for the last{' '}
        {DAILY_COUNTS_DEFAULT_DAYS} days. {REPORT_DETAILED_LABEL}: every message, sent by e-mail. {REPORT_OPTED_OUT_LABEL}:
        the contacts who opted out of the account or of a list.
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<DownloadOutlined />}
          loading={downloading('summary')}
          disabled={download.isPending && !downloading('summary')}
          onClick={() => {
            download.mutate('summary');
          }}
        >
          {REPORT_SUMMARY_LABEL}
        </Button>
        <Button
          variant="outlined"
          startIcon={<EmailOutlined />}
          onClick={() => {
            setAsking(true);
          }}
        >
          {REPORT_DETAILED_LABEL}
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadOutlined />}
          loading={downloading('optOut')}
          disabled={download.isPending && !downloading('optOut')}
          onClick={() => {
            download.mutate('optOut');
          }}
        >
          {REPORT_OPTED_OUT_LABEL}
        </Button>
      </Stack>
      {download.isError && (
        <Box sx={{ mt: 2 }}>
          <ErrorAlert message={errorMessage(download.error)} />
        </Box>
      )}
      {asking && (
        <DetailedReportDialog
          accountId={accountId}
          onClose={() => {
            setAsking(false);
          }}
        />
      )}
    </Box>
  );
};
