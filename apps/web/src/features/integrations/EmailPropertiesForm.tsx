import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { allowedSenderSchema, changedProperties, EMAIL_DEFAULT_PROPERTIES, EMAIL_SENDER_ENTRY_MESSAGE, emailPropertiesSchema, type EmailProperties } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSenderNumbers } from './emailQueries';
import { useSaveProperties } from './queries';

const propertiesOf = (properties: Record<string, unknown>): EmailProperties => {
  const parsed = emailPropertiesSchema.safeParse({ ...EMAIL_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : EMAIL_DEFAULT_PROPERTIES;
};

/** The entries of the editor, one a line; the first bad one, if there is one. */
function readSenders(text: string): { entries: string[]; bad: string | null } {
  const lines = text.split(/[\n,;]+/).map((l) => l.trim()).filter((l) => l !== '');
  const entries: string[] = [];
  for (const line of lines) {
    const parsed = allowedSenderSchema.safeParse(line);
    if (!parsed.success) return { entries, bad: line };
    if (!entries.includes(parsed.data)) entries.push(parsed.data);
  }
  return { entries, bad: null };
}

/** Who may send (addresses or @domain entries) and the number texts go from; only the changes are sent. */
export const EmailPropertiesForm = ({ accountId, properties, readOnly }: { accountId: string; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const [senders, setSenders] = useState(initial.allowedSenders.join('\n'));
  const [senderNumberId, setSenderNumberId] = useState(initial.senderNumberId);
  const numbers = useSenderNumbers(accountId);
  const save = useSaveProperties(accountId, 'email');
  const read = readSenders(senders);
  const current: EmailProperties = { allowedSenders: read.entries, senderNumberId };
  const changed = changedProperties(initial, current);
  const submit = (): void => {
    if (read.bad !== null) return;
    save.mutate(changed);
  };
  return (
    <form noValidate aria-label="Properties" onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <Typography variant="h2">Properties</Typography>
        {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        <TextField
          label="Allowed senders"
          multiline
          minRows={3}
          disabled={readOnly}
          value={senders}
          onChange={(event) => { setSenders(event.target.value); }}
          error={read.bad !== null}
          helperText={read.bad !== null ? `${EMAIL_SENDER_ENTRY_MESSAGE}: ${read.bad}` : 'One a line: an address (ops@example.com) or a whole domain (@example.com). Mail from others is refused.'}
        />
        <TextField
          select
          label="Sending number"
          disabled={readOnly}
          value={senderNumberId}
          onChange={(event) => { setSenderNumberId(event.target.value); }}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value="">The account&apos;s usual number</MenuItem>
          {(numbers.data ?? []).filter((n) => n.status === 'active').map((n) => (
            <MenuItem key={n.id} value={n.id}>
              {n.name === '' ? n.number : `${n.name} (${n.number})`}
            </MenuItem>
          ))}
        </TextField>
        {!readOnly && (
          <Button type="submit" variant="outlined" disabled={Object.keys(changed).length === 0 || read.bad !== null || save.isPending} sx={{ alignSelf: 'flex-start' }}>
            Save
          </Button>
        )}
      </Stack>
    </form>
  );
};
