import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { activeCampaignConnectSchema, type ActiveCampaignConnect } from '@parley/shared';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConnect } from './queries';

/** ActiveCampaign's API URL and key; the server tries them against ActiveCampaign before keeping them. */
export const ActiveCampaignConnectForm = ({ accountId, apiUrl }: { accountId: string; apiUrl: string }) => {
  const connect = useConnect(accountId, 'activecampaign');
  const { register, handleSubmit, formState } = useForm<ActiveCampaignConnect>({
    resolver: zodResolver(activeCampaignConnectSchema),
    defaultValues: { apiUrl, apiKey: '' },
  });
  const submit: SubmitHandler<ActiveCampaignConnect> = (values) => {
    connect.mutate(values);
  };
  const e = formState.errors;
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)} aria-label="Connect ActiveCampaign">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        {connect.isError && <ErrorAlert message={errorMessage(connect.error)} />}
        <TextField
          label="API URL"
          placeholder="https://youraccount.api-us1.com"
          {...register('apiUrl')}
          error={!!e.apiUrl}
          helperText={e.apiUrl?.message ?? 'In ActiveCampaign: Settings, Developer'}
        />
        <TextField label="API Key" type="password" autoComplete="off" {...register('apiKey')} error={!!e.apiKey} helperText={e.apiKey?.message} />
        <Button type="submit" variant="contained" disabled={connect.isPending} sx={{ alignSelf: 'flex-start' }}>
          Connect
        </Button>
      </Stack>
    </form>
  );
};
