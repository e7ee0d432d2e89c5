import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { validationMessages, type PrivacyRemoved, type PrivacySearchResult } from '@parley/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { CountryNumberForm, type CountryNumber } from '../../components/CountryNumberForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAccount } from '../../session/queries';
import { FoundContact } from './FoundContact';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What a removal took, in words. */
export const removedSummary = ({ contacts, conversations, messages }: PrivacyRemoved): string =>
  `Removed ${plural(contacts, 'contact', 'contacts')}, ${plural(conversations, 'conversation', 'conversations')} and ${plural(messages, 'message', 'messages')}.`;

/** Country and number, the contact found, and what was removed. */
export const PrivacySearch = ({ accountId }: { accountId: string }) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const account = useAccount(accountId);
  const [search, setSearch] = useState<CountryNumber | null>(null);
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
      <CountryNumberForm
        defaultCountry={account.data?.defaults.country.code ?? 'US'}
        numberLabel="Mobile Number"
        buttonLabel="Search"
        missingMessage={validationMessages.phoneNumberMissing}
        onSubmit={(value) => {
          setRemoved(null);
          setSearch(value);
        }}
      />
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
