import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InboundMail } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useInboundMails } from './emailQueries';

const authOf = (mail: InboundMail): string => {
  const { spf, dkim } = mail.authentication;
  return spf === undefined && dkim === undefined ? 'Not stated' : `SPF ${spf ?? '-'}, DKIM ${dkim ?? '-'}`;
};

const Result = ({ mail }: { mail: InboundMail }) => (
  <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
    <Chip size="small" color={mail.result === 'sent' ? 'success' : 'error'} label={mail.result === 'sent' ? `Sent to ${mail.mobile ?? ''}` : 'Refused'} />
    {mail.reason !== undefined && <Typography variant="caption">{mail.reason}</Typography>}
  </Stack>
);

/** The latest mails the account's addresses received: when, from, to, subject, what became of them. */
export const EmailLog = ({ accountId }: { accountId: string }) => {
  const query = useInboundMails(accountId, true);
  const mails = query.data?.data ?? [];
  return (
    <Stack spacing={1}>
      <Typography variant="h2">Received mail</Typography>
      {query.isError && <ErrorAlert message={errorMessage(query.error)} />}
      {mails.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No mail yet.
        </Typography>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Received mail" sx={{ minWidth: 760 }}>
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>From</TableCell>
                <TableCell>To</TableCell>
                <TableCell>Subject</TableCell>
                <TableCell>Result</TableCell>
                <TableCell>SPF / DKIM</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {mails.map((mail) => (
                <TableRow key={mail.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(mail.receivedAt).toLocaleString()}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{mail.from}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{mail.to}</TableCell>
                  <TableCell>{mail.subject}</TableCell>
                  <TableCell>
                    <Result mail={mail} />
                  </TableCell>
                  <TableCell>{authOf(mail)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
};
