import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AirCallLine } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useGroups } from '../groups';
import { refreshFailure, useAirCallDirectory, useAirCallLines, useAirCallRefresh } from './aircallQueries';
import { useSenderNumbers } from './emailQueries';

/** A line's choice as the select's value: 'n:<id>' a number, 'g:<id>' a group, '' its digits. */
const valueOf = (line: AirCallLine): string => (line.groupId !== null ? `g:${line.groupId}` : line.mappedBy === 'admin' && line.phoneNumberId !== null ? `n:${line.phoneNumberId}` : '');
const changeOf = (id: string, value: string) => ({
  id,
  phoneNumberId: value.startsWith('n:') ? value.slice(2) : null,
  groupId: value.startsWith('g:') ? value.slice(2) : null,
});

const LineRow = ({ line, options, readOnly, onChange }: { line: AirCallLine; options: { value: string; label: string }[]; readOnly: boolean; onChange: (value: string) => void }) => {
  const matched = options.find((o) => o.value === `n:${line.phoneNumberId ?? ''}`)?.label;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }} sx={{ alignItems: { sm: 'center' } }} aria-label={`AirCall number ${line.name}`}>
      <Stack sx={{ minWidth: 200 }}>
        <Typography variant="body1">{line.name === '' ? line.number : line.name}</Typography>
        <Typography variant="body2" color="text.secondary">{line.number === '' ? 'Not a phone number' : line.number}</Typography>
      </Stack>
      <TextField select size="small" label="Calls go to" disabled={readOnly} value={valueOf(line)} onChange={(event) => { onChange(event.target.value); }} sx={{ minWidth: 260 }} slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}>
        <MenuItem value="">{line.mappedBy === 'auto' && matched !== undefined ? `Same number: ${matched}` : 'The number with its digits (none found)'}</MenuItem>
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
};

/** AirCall's numbers, where each one's calls go (an administrator may change it), its users, and Refresh. */
export const AirCallNumbers = ({ accountId, readOnly }: { accountId: string; readOnly: boolean }) => {
  const directory = useAirCallDirectory(accountId);
  const refresh = useAirCallRefresh(accountId);
  const save = useAirCallLines(accountId);
  const numbers = useSenderNumbers(accountId);
  const groups = useGroups(accountId);
  const options = [
    ...(numbers.data ?? []).filter((n) => n.status === 'active').map((n) => ({ value: `n:${n.id}`, label: n.name === '' ? n.number : `${n.name} (${n.number})` })),
    ...(groups.data?.data ?? []).map((g) => ({ value: `g:${g.id}`, label: `Group: ${g.name}` })),
  ];
  const lines = directory.data?.lines ?? [];
  const users = directory.data?.users ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h2">Numbers</Typography>
        {!readOnly && (
          <Button variant="outlined" size="small" disabled={refresh.isPending} onClick={() => { refresh.mutate(); }}>
            Refresh
          </Button>
        )}
      </Stack>
      {refresh.isError && <Alert severity="error">{refreshFailure(refresh.error)}</Alert>}
      {directory.isError && <ErrorAlert message={errorMessage(directory.error)} />}
      {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
      {directory.isSuccess && lines.length === 0 && <Typography color="text.secondary">No AirCall numbers yet: Refresh reads them from AirCall.</Typography>}
      {lines.map((line) => (
        <LineRow key={line.id} line={line} options={options} readOnly={readOnly || save.isPending} onChange={(value) => { save.mutate({ lines: [changeOf(line.id, value)] }); }} />
      ))}
      {users.length > 0 && (
        <Typography variant="body2" color="text.secondary" aria-label="AirCall users">
          Users: {users.map((u) => u.name).join(', ')}
        </Typography>
      )}
    </Stack>
  );
};
