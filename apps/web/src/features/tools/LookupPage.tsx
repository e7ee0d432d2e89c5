import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { can, LOOKUP_NUMBER_REQUIRED, type LookupSettings, type NumberLookupKind, type NumberLookupQuery } from '@parley/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAccount } from '../../session/queries';
import { useSession } from '../../session/sessionContext';
import { CountryNumberForm } from '../../components/CountryNumberForm';
import { lookupPriceText } from './lookupTexts';

export interface LookupPageProps<T> {
  title: string;
  kind: NumberLookupKind;
  numberLabel: string;
  intro: string;
  showAnswer: (answer: T) => ReactNode;
}

const paths: Record<NumberLookupKind, string> = { carrier: 'carrierlookup', name: 'namelookup' };

/**
 * A lookup page: what it costs, the form, and the answer. A lookup may be charged, so it is a mutation the
 * person asks for, never a query that a refocused window would send again.
 */
export const LookupPage = <T,>({ title, kind, numberLabel, intro, showAnswer }: LookupPageProps<T>) => {
  const api = useApiClient();
  const { account } = useSession();
  const accountId = account?.id ?? null;
  const details = useAccount(accountId);
  const settings = useQuery({
    queryKey: ['accounts', accountId, 'tools', 'lookups'],
    enabled: accountId !== null,
    queryFn: async ({ signal }) => (await api.get<{ data: LookupSettings }>(`/v1/accounts/${accountId ?? ''}/tools/lookups`, { signal })).data,
  });
  const lookup = useMutation({
    mutationFn: async (query: NumberLookupQuery) =>
      (await api.get<{ data: T }>(`/v1/accounts/${accountId ?? ''}/tools/${paths[kind]}`, { query: { number: query.number, country: query.country } })).data,
  });
  if (account === null) return null;
  const allowed = can(account.user.role, 'tools.lookup');
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {intro}
      </Typography>
      {settings.data && (
        <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="lookup-price">
          {lookupPriceText(settings.data, kind)}
        </Typography>
      )}
      {allowed ? (
        <CountryNumberForm
          defaultCountry={details.data?.defaults.country.code ?? 'US'}
          numberLabel={numberLabel}
          buttonLabel="Look Up"
          missingMessage={LOOKUP_NUMBER_REQUIRED}
          busy={lookup.isPending}
          onSubmit={(query) => {
            lookup.mutate(query);
          }}
        />
      ) : (
        <Typography color="text.secondary">Read Only users may not look up numbers: a lookup may be charged to the account.</Typography>
      )}
      {lookup.isPending && <LinearProgress aria-label="Looking up" />}
      {lookup.isError && <ErrorAlert message={errorMessage(lookup.error)} />}
      {lookup.isSuccess && showAnswer(lookup.data)}
    </Box>
  );
};
