import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can } from '@parley/shared';
import type { PageProps } from '../../app/pageProps';
import { ApiCredentialsSection } from '../identity';
import { useSession } from '../../session/sessionContext';
import { useIntegration } from './queries';
import { ZapierSubscriptions } from './ZapierSubscriptions';

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <Stack component="section" spacing={1} aria-label={title}>
    <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
      {title}
    </Typography>
    {children}
  </Stack>
);

/**
 * /integrations/zapier: Parley's Zapier app (packages/zapier-app) works on the public API with an API
 * client, so this page says how to connect it, shows the credentials to paste, and lists the Zaps
 * subscribed (docs/integrations.md, "Zapier").
 */
export const ZapierPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const integration = useIntegration(account?.id ?? '', 'zapier');
  if (account === null) return null;
  const connected = integration.data?.data.status === 'connected';
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Stack spacing={3} sx={{ maxWidth: 820 }}>
        <Typography variant="body1" aria-label="Status">
          {connected ? 'Connected: a Zap is subscribed' : 'Available: no Zap is subscribed yet'}
        </Typography>
        <Section title="Connect Parley in Zapier">
          <Typography variant="body2" component="ol" sx={{ pl: 2, m: 0 }}>
            <li>Request API credentials for this account (below, or the account settings&apos; Plan tab).</li>
            <li>
              In Zapier, choose the Parley app and connect an account with the Parley URL <code>{window.location.origin}</code>, the Account Id, Client Id and
              Secret.
            </li>
            <li>
              Triggers: new inbound message, message status changed, new contact, updated contact, contact opted out. Actions: send a message, create or update a
              contact, add a contact to a list.
            </li>
          </Typography>
          {can(account.user.role, 'apiCredentials.manage') ? (
            <ApiCredentialsSection accountId={account.id} />
          ) : (
            <Typography variant="body2" color="text.secondary">
              Only administrators can see and request API credentials.
            </Typography>
          )}
        </Section>
        <Section title="Zaps listening">
          <ZapierSubscriptions accountId={account.id} />
        </Section>
        <Section title="Publishing the app (operators)">
          <Typography variant="body2">
            The Zapier app lives in the repository (<code>packages/zapier-app</code>). Whoever runs this Parley publishes it once with their own Zapier developer
            account: <code>zapier login</code>, <code>zapier register</code>, then <code>zapier push</code> from that folder, and invites their users to it (its
            README says more).
          </Typography>
        </Section>
      </Stack>
    </>
  );
};
