import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { INTEGRATION_NAMES, type IntegrationKind } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';

/** Connect for an OAuth integration: the server binds a state to this user and account, then the browser goes to the provider. */
export const OAuthConnectButton = ({ accountId, kind }: { accountId: string; kind: IntegrationKind }) => {
  const api = useApiClient();
  const start = useMutation({
    mutationFn: () => api.get<{ data: { url: string } }>(`/v1/accounts/${accountId}/integrations/${kind}/oauth/start`),
    onSuccess: (answer) => {
      window.location.assign(answer.data.url);
    },
  });
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      {start.isError && <ErrorAlert message={errorMessage(start.error)} />}
      <Button variant="contained" disabled={start.isPending || start.isSuccess} onClick={() => { start.mutate(); }}>
        Connect to {INTEGRATION_NAMES[kind]}
      </Button>
    </Stack>
  );
};
