import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../session/sessionContext';

/** Only same-site paths: an open redirect would hand the account id to any site. */
export function authorizeTarget(redirectTo: string | null, accountId: string, origin: string): string | null {
  if (redirectTo === null || redirectTo === '') return null;
  let url: URL;
  try {
    url = new URL(redirectTo, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  url.searchParams.set('accountId', accountId);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /authorize: 'Authorizing...', then the target with the current account's id added (spec §2). */
export const AuthorizePage = () => {
  const session = useSession();
  const [params] = useSearchParams();
  const account = session.account;
  const target = account === null ? null : authorizeTarget(params.get('redirectTo'), account.id, window.location.origin);
  useEffect(() => {
    window.location.replace(target ?? '/');
  }, [target]);
  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      <Typography role="status">Authorizing...</Typography>
    </Box>
  );
};
