import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { cradleConnectSchema, type CradleConnect } from '@parley/shared';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConnect } from './queries';

/** Cradle's API key; the server tries it against Cradle and registers its signed call webhook there. */
export const CradleConnectForm = ({ accountId }: { accountId: string }) => {
  const connect = useConnect(accountId, 'cradle');
  const { register, handleSubmit, formState } = useForm<CradleConnect>({ resolver: zodResolver(cradleConnectSchema), defaultValues: { apiKey: '' } });
  const submit: SubmitHandler<CradleConnect> = (values) => {
    connect.mutate(values);
  };
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)} aria-label="Connect Cradle">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        {connect.isError && <ErrorAlert message={errorMessage(connect.error)} />}
        <TextField
          label="API Key"
          type="password"
          autoComplete="off"
          {...register('apiKey')}
          error={!!formState.errors.apiKey}
          helperText={formState.errors.apiKey?.message ?? "Cradle's API key for this account"}
        />
        <Button type="submit" variant="contained" disabled={connect.isPending} sx={{ alignSelf: 'flex-start' }}>
          Connect
        </Button>
      </Stack>
    </form>
  );
};
