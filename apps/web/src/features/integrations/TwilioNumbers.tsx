import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { TWILIO_IMPORT_MAX, type TwilioAccountNumber } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useImportTwilioNumbers, useTwilioNumbers } from './twilioQueries';

const NumberRow = ({ number, chosen, onToggle, canManage }: { number: TwilioAccountNumber; chosen: boolean; onToggle: () => void; canManage: boolean }) => {
  const importable = number.phoneNumberId === null && number.smsEnabled;
  return (
    <TableRow>
      <TableCell padding="checkbox">
        {canManage && importable && <Checkbox checked={chosen} onChange={onToggle} slotProps={{ input: { 'aria-label': `Choose ${number.number}` } }} />}
      </TableCell>
      <TableCell>{number.number}</TableCell>
      <TableCell>{number.friendlyName}</TableCell>
      <TableCell>{number.phoneNumberId !== null ? 'In Parley' : number.smsEnabled ? 'Not imported' : 'No SMS'}</TableCell>
    </TableRow>
  );
};

/** The Twilio account's numbers, page by page; the chosen ones are imported into Parley on this connection. */
export const TwilioNumbers = ({ accountId, connectionId, canManage }: { accountId: string; connectionId: string; canManage: boolean }) => {
  const query = useTwilioNumbers(accountId, connectionId);
  const importing = useImportTwilioNumbers(accountId, connectionId);
  const [chosen, setChosen] = useState<string[]>([]);
  if (query.isError) return <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (query.data === undefined) return <Typography color="text.secondary">Loading...</Typography>;
  const numbers = query.data.pages.flatMap((page) => page.data);
  const toggle = (sid: string) => {
    setChosen((current) => (current.includes(sid) ? current.filter((s) => s !== sid) : [...current, sid]));
  };
  const submit = () => {
    importing.mutate(chosen, {
      onSuccess: () => {
        setChosen([]);
        void query.refetch();
      },
    });
  };
  if (numbers.length === 0) return <Typography color="text.secondary">This Twilio account has no phone numbers.</Typography>;
  return (
    <Stack spacing={2}>
      {importing.isError && <ErrorAlert message={errorMessage(importing.error)} />}
      {importing.isSuccess && <Alert severity="success">Imported: the numbers are in Phone Numbers.</Alert>}
      <Table size="small" aria-label="Twilio numbers">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>Number</TableCell>
            <TableCell>Name in Twilio</TableCell>
            <TableCell>In Parley</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {numbers.map((number) => (
            <NumberRow key={number.sid} number={number} chosen={chosen.includes(number.sid)} onToggle={() => { toggle(number.sid); }} canManage={canManage} />
          ))}
        </TableBody>
      </Table>
      <Stack direction="row" spacing={2}>
        {query.hasNextPage && (
          <Button variant="text" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            More numbers
          </Button>
        )}
        {canManage && (
          <Button variant="contained" disabled={chosen.length === 0 || chosen.length > TWILIO_IMPORT_MAX || importing.isPending} onClick={submit}>
            Import {chosen.length === 0 ? '' : String(chosen.length)}
          </Button>
        )}
      </Stack>
    </Stack>
  );
};
