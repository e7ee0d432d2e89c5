import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { validationMessages, type PrivacyRemoved, type PrivacySearchResult } from '@parley/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { countryMenuItems } from '../../components/countryMenuItems';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAccount } from '../../session/queries';
import { FoundContact } from './FoundContact';

interface Search {
  number: string;
  country: string;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What a removal took, in words. */
export const removedSummary = ({ contacts, conversations, messages }: PrivacyRemoved): string =>
  `Removed ${plural(contacts, 'contact', 'contacts')}, ${plural(conversations, 'conversation', 'conversations')} and ${plural(messages, 'message', 'messages')}.`;

/** Country and number, the contact found, and what was removed. */
export const PrivacySearch = ({ accountId }: { accountId: string }) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const account = useAccount(accountId);
  const [countryChoice, setCountryChoice] = useState<string | null>(null);
  const country = countryChoice ?? account.data?.defaults.country.code ?? 'US';
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);
  const [search, setSearch] = useState<Search | null>(null);
  const [removed, setRemoved] = useState<PrivacyRemoved | null>(null);

  const result = useQuery({
    queryKey: ['accounts', accountId, 'gdpr', 'search', search],
    enabled: search !== null,
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: PrivacySearchResult }>(`/v1/accounts/${accountId}/gdpr/search`, {
          query: { number: search?.number, country: search?.country },
          signal,
        })
      ).data,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (number.trim() === '') {
      setNumberError(validationMessages.phoneNumberMissing);
      return;
    }
    setNumberError(null);
    setRemoved(null);
    setSearch({ number: number.trim(), country });
  };

  const onRemoved = (answer: PrivacyRemoved) => {
    setRemoved(answer);
    setSearch(null);
    // Lists' member counts and the contacts table no longer hold this person.
    void queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'lists'] });
    void queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'contacts'] });
  };

  return (
    <Box sx={{ maxWidth: 720 }}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Find a contact by mobile number to download everything held about them, or to delete them permanently. Both
        are recorded in the account's audit log.
      </Typography>
      <Stack component="form" noValidate onSubmit={submit} direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' }, mb: 2 }}>
        <TextField
          select
          label="Country"
          value={country}
          onChange={(event) => {
            setCountryChoice(event.target.value);
          }}
          sx={{ minWidth: 200 }}
        >
          {countryMenuItems()}
        </TextField>
        <TextField
          label="Mobile Number"
          value={number}
          onChange={(event) => {
            setNumber(event.target.value);
          }}
          error={numberError !== null}
          helperText={numberError ?? 'A number with a leading + may be of any country'}
          required
          sx={{ flexGrow: 1 }}
        />
        <Button type="submit" variant="contained" startIcon={<SearchOutlined />} sx={{ mt: { sm: 1 } }}>
          Search
        </Button>
      </Stack>
      {result.isFetching && <LinearProgress aria-label="Searching" />}
      {result.isError && <ErrorAlert message={errorMessage(result.error)} onRetry={() => void result.refetch()} />}
      {removed !== null && (
        <Alert severity="success" variant="outlined" role="status">
          <AlertTitle>Deleted permanently</AlertTitle>
          {removedSummary(removed)}
        </Alert>
      )}
      {search !== null && result.isSuccess && result.data === null && (
        <Typography sx={{ mt: 1 }}>No contact holds this number.</Typography>
      )}
      {search !== null && result.isSuccess && result.data !== null && (
        <FoundContact accountId={accountId} found={result.data} onRemoved={onRemoved} />
      )}
    </Box>
  );
};
