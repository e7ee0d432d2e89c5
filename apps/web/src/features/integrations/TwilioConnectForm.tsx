import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { connectTwilioSchema, type ConnectTwilio } from '@parley/shared';
import { useForm, type SubmitHandler } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConnectTwilio } from './twilioQueries';

type Fields = z.input<typeof connectTwilioSchema>;

/** The Twilio account's SID and auth token; the server checks them with Twilio before keeping them. */
export const TwilioConnectForm = ({ accountId, onConnected, onCancel }: { accountId: string; onConnected?: () => void; onCancel?: () => void }) => {
  const connect = useConnectTwilio(accountId);
  const { register, handleSubmit, formState } = useForm<Fields, unknown, ConnectTwilio>({
    resolver: zodResolver(connectTwilioSchema),
    defaultValues: { name: 'Twilio', settings: { accountSid: '' }, secret: '' },
  });
  const submit: SubmitHandler<ConnectTwilio> = (values) => {
    connect.mutate(values, { onSuccess: onConnected });
  };
  const e = formState.errors;
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)} aria-label="Connect Twilio">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        {connect.isError && <ErrorAlert message={errorMessage(connect.error)} />}
        <TextField label="Account SID" placeholder="AC..." {...register('settings.accountSid')} error={!!e.settings?.accountSid} helperText={e.settings?.accountSid?.message ?? 'In the Twilio console: Account Info'} />
        <TextField label="Auth Token" type="password" autoComplete="off" {...register('secret')} error={!!e.secret} helperText={e.secret?.message} />
        <TextField label="Name" {...register('name')} error={!!e.name} helperText={e.name?.message ?? 'How Parley names this connection'} />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={connect.isPending}>
            Connect
          </Button>
          {onCancel !== undefined && <Button onClick={onCancel}>Cancel</Button>}
        </Stack>
      </Stack>
    </form>
  );
};
