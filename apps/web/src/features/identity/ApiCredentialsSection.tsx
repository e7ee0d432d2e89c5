import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ApiCredentials } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { credentialsQueryKey, useApiCredentials } from './queries';

const ReadOnlyField = ({ label, value, copyable = false }: { label: string; value: string; copyable?: boolean }) => {
  const snackbar = useSnackbar();
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      slotProps={{
        input: {
          readOnly: true,
          endAdornment: copyable ? (
            <InputAdornment position="end">
              <IconButton
                aria-label={`Copy ${label}`}
                onClick={() => {
                  void navigator.clipboard.writeText(value).then(
                    () => {
                      snackbar.show(`${label} copied`);
                    },
                    () => {
                      snackbar.show('Copying is not allowed here: select the text and copy it');
                    },
                  );
                }}
              >
                <ContentCopy fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
};

/** API credentials: requested once, renewed later; the whole secret is only in the answer that issues it. */
export const ApiCredentialsSection = ({ accountId }: { accountId: string }) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const credentials = useApiCredentials(accountId);
  const [issued, setIssued] = useState<ApiCredentials | null>(null);
  const issue = useMutation({
    mutationFn: async (renew: boolean) => {
      const path = `/v1/accounts/${accountId}/credentials`;
      const answer = renew
        ? await api.put<{ data: ApiCredentials }>(path)
        : await api.post<{ data: ApiCredentials }>(path);
      return answer.data;
    },
    onSuccess: async (answer) => {
      setIssued(answer);
      await queryClient.invalidateQueries({ queryKey: credentialsQueryKey(accountId) });
    },
  });

  const stored = credentials.data;
  const shown = issued ?? stored;
  return (
    <Box component="section" aria-labelledby="api-credentials-title">
      <Typography id="api-credentials-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        API Credentials
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        For scripts and integrations that call the API.{' '}
        <Link href="/docs" target="_blank" rel="noopener">
          Developers
        </Link>
        : the API reference, with the calls compatible with the hosted REST API v1.
      </Typography>
      {credentials.isPending && <LinearProgress aria-label="Loading API credentials" />}
      {credentials.isError && <ErrorAlert message={errorMessage(credentials.error)} onRetry={() => void credentials.refetch()} />}
      {credentials.isSuccess && (shown === null || shown === undefined) && (
        <Button variant="contained" loading={issue.isPending} onClick={() => { issue.mutate(false); }}>
          Request Credentials
        </Button>
      )}
      {shown !== null && shown !== undefined && (
        <Stack spacing={2}>
          <ReadOnlyField label="Account Id" value={shown.accountId} copyable />
          <ReadOnlyField label="Client Id" value={shown.clientId} copyable />
          <ReadOnlyField label="Secret" value={shown.secret} copyable={issued !== null} />
          {issued !== null && (
            <Alert
              severity="warning"
              action={
                <Button color="inherit" size="small" onClick={() => { setIssued(null); }}>
                  Done
                </Button>
              }
            >
              This secret is shown only once. Copy it now and keep it safe: afterwards only its last four characters are shown.
            </Alert>
          )}
          <div>
            <Button variant="outlined" loading={issue.isPending} onClick={() => { issue.mutate(true); }}>
              Renew Secret
            </Button>
          </div>
        </Stack>
      )}
      {issue.isError && <ErrorAlert message={errorMessage(issue.error)} />}
    </Box>
  );
};
