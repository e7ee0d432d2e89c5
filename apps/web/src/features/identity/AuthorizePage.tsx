import { sameOriginPath } from '@parley/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../session/sessionContext';

/**
 * Only paths of this site (sameOriginPath): an open redirect would hand the account id to any site. The
 * answer is built from the checked path, so it cannot be read as another origin afterwards.
 */
export function authorizeTarget(redirectTo: string | null, accountId: string, origin: string): string | null {
  const path = sameOriginPath(redirectTo, origin);
  if (path === null) return null;
  const url = new URL(path, origin);
  url.searchParams.set('accountId', accountId);
  return sameOriginPath(url.href, origin);
}

/** /authorize: 'Authorizing...', then the target with the current account's id added. */
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
