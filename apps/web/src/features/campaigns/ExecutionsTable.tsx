import PieChartOutlined from '@mui/icons-material/PieChartOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { campaignInvalidReasonLabels, campaignInvalidReasons, formatMoney, JOB_REPORT_TITLE, type CampaignExecution } from '@parley/shared';
import { lazy, Suspense, useMemo, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useCampaignExecutions } from './queries';
import { useExecutionsFollow } from './useExecutionsFollow';

// The report's chart library is loaded when a report is first opened.
const MessageReportDialog = lazy(() => import('./MessageReportDialog').then((m) => ({ default: m.MessageReportDialog })));

/** The executions a campaign's row expands into: the 25 newest. */
const EXECUTIONS_SHOWN = 25;

const invalidTitle = (execution: CampaignExecution): string =>
  campaignInvalidReasons
    .filter((reason) => execution.invalidCounts[reason] > 0)
    .map((reason) => `${campaignInvalidReasonLabels[reason]}: ${String(execution.invalidCounts[reason])}`)
    .join(', ');

export const ExecutionsTable = ({ accountId, campaignId }: { accountId: string; campaignId: string }) => {
  const executions = useCampaignExecutions(accountId, campaignId, EXECUTIONS_SHOWN);
  const shownIds = useMemo(() => (executions.data?.data ?? []).map((e) => e.id), [executions.data]);
  useExecutionsFollow(accountId, campaignId, shownIds);
  const [report, setReport] = useState<string | null>(null);
  if (executions.isPending) return <CircularProgress size={24} aria-label="Loading the executions" sx={{ m: 2 }} />;
  if (executions.isError) return <ErrorAlert message={errorMessage(executions.error)} onRetry={() => void executions.refetch()} />;
  const rows = executions.data.data;
  if (rows.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        Not executed yet.
      </Typography>
    );
  }
  return (
    <>
      <Table size="small" aria-label="Executions">
        <TableHead>
          <TableRow>
            <TableCell>Executed At</TableCell>
            <TableCell align="right">Submitted</TableCell>
            <TableCell align="right">Invalid</TableCell>
            <TableCell align="right">Failures</TableCell>
            <TableCell align="right">Incoming</TableCell>
            <TableCell align="right">Outbound Price</TableCell>
            <TableCell>Error</TableCell>
            <TableCell padding="checkbox" />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((execution) => (
            <TableRow key={execution.id}>
              <TableCell>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                  {new Date(execution.created.at).toLocaleString()}
                  {execution.status === 'running' && <Chip size="small" color="info" label="Sending" />}
                </Box>
              </TableCell>
              <TableCell align="right">
                {execution.submitted.toLocaleString()} of {execution.recipients.toLocaleString()}
              </TableCell>
              <TableCell align="right">
                {execution.invalidCount > 0 ? (
                  <Tooltip title={invalidTitle(execution)}>
                    <span>{execution.invalidCount.toLocaleString()}</span>
                  </Tooltip>
                ) : (
                  '0'
                )}
              </TableCell>
              <TableCell align="right">{execution.failures.toLocaleString()}</TableCell>
              <TableCell align="right">{execution.incoming.toLocaleString()}</TableCell>
              <TableCell align="right">${formatMoney(execution.price)}</TableCell>
              <TableCell>
                {execution.error !== null && (
                  <Tooltip title={execution.error.description}>
                    <ErrorOutlined color="error" fontSize="small" aria-label={`Error: ${execution.error.description}`} />
                  </Tooltip>
                )}
              </TableCell>
              <TableCell padding="checkbox">
                <Tooltip title={JOB_REPORT_TITLE}>
                  <IconButton size="small" aria-label="Report" onClick={() => { setReport(execution.id); }}>
                    <PieChartOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {report !== null && (
        <Suspense fallback={null}>
          <MessageReportDialog accountId={accountId} jobId={report} onClose={() => { setReport(null); }} />
        </Suspense>
      )}
    </>
  );
};
