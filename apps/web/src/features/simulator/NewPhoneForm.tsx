import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SimulatorNumber } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneSend } from './queries';

interface NewPhoneFormProps {
  accountId: string;
  numbers: readonly SimulatorNumber[];
}

/** A customer who texts first: any phone number texts one of the account's simulator numbers. */
export const NewPhoneForm = ({ accountId, numbers }: NewPhoneFormProps) => {
  const send = usePhoneSend(accountId);
  const display = usePhoneDisplay();
  const [phone, setPhone] = useState('');
  const [chosen, setChosen] = useState('');
  const [text, setText] = useState('');
  const to = numbers.some((n) => n.number === chosen) ? chosen : (numbers[0]?.number ?? '');
  const ready = phone.trim() !== '' && text.trim() !== '' && to !== '';

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
      <Typography variant="subtitle1" component="h2" gutterBottom>
        Text from a new phone
      </Typography>
      <Stack
        component="form"
        direction={{ xs: 'column', md: 'row' }}
        spacing={1}
        sx={{ alignItems: { md: 'flex-start' } }}
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          send.mutate(
            { phone: phone.trim(), message: { to, body: text, picture: false } },
            {
              onSuccess: () => {
                setText('');
              },
            },
          );
        }}
      >
        <TextField
          size="small"
          label="Phone number"
          placeholder="+14155550123"
          value={phone}
          onChange={(event) => {
            setPhone(event.target.value);
          }}
          sx={{ minWidth: 180 }}
        />
        {numbers.length > 1 && (
          <TextField
            select
            size="small"
            label="To"
            value={to}
            onChange={(event) => {
              setChosen(event.target.value);
            }}
            sx={{ minWidth: 180 }}
          >
            {numbers.map((n) => (
              <MenuItem key={n.number} value={n.number}>
                {display.phone(n.number)}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          size="small"
          label={numbers.length > 1 ? 'Message' : `Message to ${display.phone(to)}`}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
          slotProps={{ htmlInput: { maxLength: 1600 } }}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="contained" disabled={!ready} loading={send.isPending}>
          Send
        </Button>
      </Stack>
      {send.isError && (
        <Typography variant="caption" color="error" role="alert" sx={{ display: 'block', mt: 1 }}>
          {errorMessage(send.error)}
        </Typography>
      )}
    </Paper>
  );
};
