import Typography from '@mui/material/Typography';
import { can } from '@parley/shared';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { PrivacySearch } from './PrivacySearch';

/** /admin/gdpr: find a contact by number, download what is held about them, or remove them for good. */
export const GdprPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  const allowed = can(account.user.role, 'gdpr.manage');
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {allowed ? (
        <PrivacySearch accountId={account.id} />
      ) : (
        <Typography color="text.secondary">Only administrators may manage personal data.</Typography>
      )}
    </>
  );
};
