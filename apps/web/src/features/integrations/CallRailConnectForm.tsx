import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { callRailConnectSchema, type CallRailConnect } from '@parley/shared';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConnect } from './queries';

/** CallRail's API key, account id and the company's webhook signing key; the server tries the key against CallRail first. */
export const CallRailConnectForm = ({ accountId, callRailAccountId }: { accountId: string; callRailAccountId: string }) => {
  const connect = useConnect(accountId, 'callrail');
  const { register, handleSubmit, formState } = useForm<CallRailConnect>({
    resolver: zodResolver(callRailConnectSchema),
    defaultValues: { apiKey: '', accountId: callRailAccountId, signingKey: '' },
  });
  const submit: SubmitHandler<CallRailConnect> = (values) => {
    connect.mutate(values);
  };
  const e = formState.errors;
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)} aria-label="Connect CallRail">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        {connect.isError && <ErrorAlert message={errorMessage(connect.error)} />}
        <TextField label="API Key" type="password" autoComplete="off" {...register('apiKey')} error={!!e.apiKey} helperText={e.apiKey?.message ?? 'In CallRail: Integrations, API Keys (an API v3 key)'} />
        <TextField label="Account ID" placeholder="ACC…" {...register('accountId')} error={!!e.accountId} helperText={e.accountId?.message} />
        <TextField
          label="Webhook signing key"
          type="password"
          autoComplete="off"
          {...register('signingKey')}
          error={!!e.signingKey}
          helperText={e.signingKey?.message ?? "In CallRail: Integrations, Webhooks: the company's signing key"}
        />
        <Button type="submit" variant="contained" disabled={connect.isPending} sx={{ alignSelf: 'flex-start' }}>
          Connect
        </Button>
      </Stack>
    </form>
  );
};
