import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { campaignInvalidReasonLabels, type JobReportError, type JobReportInvalid } from '@parley/shared';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';

const nameOf = (entry: JobReportInvalid): string => [entry.firstName, entry.lastName].filter((part) => part !== undefined && part !== '').join(' ');

const Heading = ({ children }: { children: string }) => (
  <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
    {children}
  </Typography>
);

/** Why messages failed or were not sent, the most frequent first. */
export const MessageReportErrors = ({ errors }: { errors: readonly JobReportError[] }) => {
  if (errors.length === 0) return null;
  return (
    <>
      <Heading>Errors</Heading>
      <Table size="small" aria-label="Errors">
        <TableHead>
          <TableRow>
            <TableCell>Error</TableCell>
            <TableCell align="right">Messages</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {errors.map((error) => (
            <TableRow key={error.description}>
              <TableCell>{error.description}</TableCell>
              <TableCell align="right">{error.count.toLocaleString()}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
};

/** The contacts (or file rows) left out of the execution and why; the first ones when there are many. */
export const MessageReportInvalid = ({ invalid, count }: { invalid: readonly JobReportInvalid[]; count: number }) => {
  const display = usePhoneDisplay();
  if (count === 0) return null;
  const hasRows = invalid.some((entry) => entry.row !== undefined);
  return (
    <>
      <Heading>{`Invalid Contacts (${count.toLocaleString()})`}</Heading>
      {invalid.length < count && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          The first {invalid.length.toLocaleString()} are listed.
        </Typography>
      )}
      <Box sx={{ maxHeight: 280, overflow: 'auto' }}>
        <Table size="small" stickyHeader aria-label="Invalid contacts">
          <TableHead>
            <TableRow>
              {hasRows && <TableCell>Row</TableCell>}
              <TableCell>Name</TableCell>
              <TableCell>Mobile</TableCell>
              <TableCell>Reason</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invalid.map((entry, i) => (
              <TableRow key={`${entry.contactId ?? ''}-${String(entry.row ?? i)}`}>
                {hasRows && <TableCell>{entry.row ?? ''}</TableCell>}
                <TableCell>{nameOf(entry)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{entry.mobile === undefined ? '' : display.phone(entry.mobile)}</TableCell>
                <TableCell>
                  {campaignInvalidReasonLabels[entry.reason]}
                  {entry.description !== campaignInvalidReasonLabels[entry.reason] && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {entry.description}
                    </Typography>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
};
