import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ContactImport } from '@parley/shared';

const count = (n: number): string => n.toLocaleString('en');

/** Step 3: a progress bar while the job runs, then the upload result. */
export const SummaryStep = ({ record }: { record: ContactImport | null }) => {
  if (record === null || record.status === 'queued' || record.status === 'running') {
    const total = record?.progress.totalRows ?? null;
    const done = record?.progress.processedRows ?? 0;
    const percent = total === null || total === 0 ? null : Math.round((done / total) * 100);
    return (
      <Stack spacing={1} aria-live="polite">
        <Typography>{record?.status === 'running' ? 'Importing…' : 'Waiting to start…'}</Typography>
        <LinearProgress
          variant={percent === null ? 'indeterminate' : 'determinate'}
          value={percent ?? 0}
          aria-label="Import progress"
        />
        {total !== null && (
          <Typography variant="body2" color="text.secondary">
            {count(done)} of {count(total)} rows
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          The import goes on if you close this window.
        </Typography>
      </Stack>
    );
  }
  const { result } = record;
  const notIn = result.submitted - result.success;
  return (
    <Stack spacing={2}>
      {record.status === 'failed' && (
        <Alert severity="error" variant="outlined">
          <AlertTitle>The import failed</AlertTitle>
          {record.error?.description}
        </Alert>
      )}
      <Table size="small" aria-label="Import summary" sx={{ maxWidth: 360 }}>
        <TableBody>
          {(
            [
              ['Submitted', result.submitted],
              ['Success', result.success],
              ['Missing Mobile', result.missingMobile],
              ['Duplicates', result.duplicates],
              ['Errors', notIn],
            ] as const
          ).map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell align="right">{count(value)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {record.status === 'completed' && (
        <Typography variant="body2" color="text.secondary">
          {notIn === 0
            ? 'Every row went in.'
            : `Every row went in except the ${notIn === 1 ? 'one' : count(notIn)} listed below.`}
        </Typography>
      )}
      {result.errors.length > 0 && (
        <Box>
          <TableContainer sx={{ maxHeight: 240, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" stickyHeader aria-label="Rows not imported">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 80 }}>Row</TableCell>
                  <TableCell>Reason</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.errors.map((e) => (
                  <TableRow key={e.row}>
                    <TableCell>{e.row}</TableCell>
                    <TableCell>{e.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {result.unlistedErrors > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              and {count(result.unlistedErrors)} more rows
            </Typography>
          )}
        </Box>
      )}
    </Stack>
  );
};
