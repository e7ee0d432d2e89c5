import Box from '@mui/material/Box';
import { useTheme, type Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { PieChart } from '@mui/x-charts/PieChart';
import {
  JOB_REPORT_NO_INCOMING,
  JOB_REPORT_NO_OUTGOING,
  jobReportStatusLabels,
  type JobReportStatistic,
  type MessageStatus,
} from '@parley/shared';
import { useState } from 'react';

type Direction = 'outgoing' | 'incoming';

const statusColor = (theme: Theme, status: MessageStatus): string => {
  switch (status) {
    case 'queued':
      return theme.palette.grey[500];
    case 'sending':
      return theme.palette.info.light;
    case 'sent':
      return theme.palette.info.main;
    case 'delivered':
      return theme.palette.success.main;
    case 'undelivered':
      return theme.palette.warning.main;
    case 'failed':
      return theme.palette.error.main;
    case 'received':
      return theme.palette.secondary.main;
  }
};

/**
 * The execution's messages by status, as a donut and a table, for its outgoing messages or for the replies
 * received since (the Outgoing / Incoming toggle). No messages: a sentence instead of an empty chart.
 */
export const MessageReportStatistics = ({ statistics }: { statistics: readonly JobReportStatistic[] }) => {
  const theme = useTheme();
  const [direction, setDirection] = useState<Direction>('outgoing');
  const shown = statistics.filter((s) => s.outgoing === (direction === 'outgoing'));
  const total = shown.reduce((sum, s) => sum + s.count, 0);
  return (
    <Box>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={direction}
        aria-label="Messages shown"
        onChange={(_event, next: Direction | null) => {
          if (next !== null) setDirection(next);
        }}
        sx={{ mb: 2 }}
      >
        <ToggleButton value="outgoing">Outgoing</ToggleButton>
        <ToggleButton value="incoming">Incoming</ToggleButton>
      </ToggleButtonGroup>
      {total === 0 ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {direction === 'outgoing' ? JOB_REPORT_NO_OUTGOING : JOB_REPORT_NO_INCOMING}
        </Typography>
      ) : (
        <Box sx={{ display: 'flex', gap: 3, alignItems: 'center', flexWrap: 'wrap' }}>
          <PieChart
            width={220}
            height={220}
            hideLegend
            aria-label={`${direction === 'outgoing' ? 'Outgoing' : 'Incoming'} messages by status`}
            series={[
              {
                innerRadius: 60,
                outerRadius: 100,
                paddingAngle: 1,
                cornerRadius: 3,
                data: shown.map((s) => ({
                  id: s.status,
                  value: s.count,
                  label: jobReportStatusLabels[s.status],
                  color: statusColor(theme, s.status),
                })),
              },
            ]}
          />
          <Table size="small" aria-label={`${direction === 'outgoing' ? 'Outgoing' : 'Incoming'} messages by status`} sx={{ flex: 1, minWidth: 220 }}>
            <TableHead>
              <TableRow>
                <TableCell>Status</TableCell>
                <TableCell align="right">Messages</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={s.status}>
                  <TableCell>
                    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: statusColor(theme, s.status) }} />
                      {jobReportStatusLabels[s.status]}
                    </Box>
                  </TableCell>
                  <TableCell align="right">{s.count.toLocaleString()}</TableCell>
                </TableRow>
              ))}
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>Total</TableCell>
                <TableCell align="right" sx={{ fontWeight: 600 }}>
                  {total.toLocaleString()}
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
};
