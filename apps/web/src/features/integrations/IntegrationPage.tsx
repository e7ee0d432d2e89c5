import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can, INTEGRATION_NOT_AVAILABLE_MESSAGE, isIntegrationKind, type Integration, type IntegrationKind } from '@parley/shared';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/sessionContext';
import { ActiveCampaignConnectForm } from './ActiveCampaignConnectForm';
import { ActiveCampaignPropertiesForm } from './ActiveCampaignPropertiesForm';
import { CallRailConnectForm } from './CallRailConnectForm';
import { AirCallNumbers } from './AirCallNumbers';
import { CallPropertiesForm } from './CallPropertiesForm';
import { CallRailWebhookUrl } from './CallRailWebhookUrl';
import { CradleConnectForm } from './CradleConnectForm';
import { EmailConnection } from './EmailConnection';
import { EmailLog } from './EmailLog';
import { EmailPropertiesForm } from './EmailPropertiesForm';
import { GoogleCalendarPropertiesForm } from './GoogleCalendarPropertiesForm';
import { HubSpotPropertiesForm } from './HubSpotPropertiesForm';
import { IntercomPropertiesForm } from './IntercomPropertiesForm';
import { OAuthConnectButton } from './OAuthConnectButton';
import { PipedrivePropertiesForm } from './PipedrivePropertiesForm';
import { useDisconnect, useIntegration } from './queries';
import { SyncPanel } from './SyncPanel';

/** Kinds whose connector synchronizes no contacts: their pages have no sync panel. */
const WITHOUT_SYNC: readonly IntegrationKind[] = ['email', 'intercom', 'aircall', 'cradle', 'googlecalendar'];

/** /integrations/{kind}: one integration's page; kinds without a connector say 'Not available yet'. */
export const IntegrationPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const kind = useLocation().pathname.split('/').pop() ?? '';
  const [search] = useSearchParams();
  const queryError = search.get('error');
  if (account === null || !isIntegrationKind(kind)) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {queryError !== null && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {queryError}
        </Alert>
      )}
      <IntegrationView key={kind} accountId={account.id} kind={kind} canManage={can(account.user.role, 'integrations.manage')} />
    </>
  );
};

const statusLine = (integration: Integration): string => {
  switch (integration.status) {
    case 'connected':
      return `Connected${integration.connectedAt === undefined ? '' : ` since ${new Date(integration.connectedAt).toLocaleString()}`}`;
    case 'error':
      return 'Error: connect again';
    case 'notConnected':
      return 'Not connected';
  }
};

const IntegrationView = ({ accountId, kind, canManage }: { accountId: string; kind: IntegrationKind; canManage: boolean }) => {
  const query = useIntegration(accountId, kind);
  const disconnect = useDisconnect(accountId, kind);
  const integration = query.data?.data;
  if (query.isError) return <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (integration === undefined) return <Typography color="text.secondary">Loading...</Typography>;
  if (!integration.available) return <Typography color="text.secondary">{INTEGRATION_NOT_AVAILABLE_MESSAGE}</Typography>;
  const connected = integration.status !== 'notConnected';
  return (
    <Stack spacing={3} sx={{ maxWidth: kind === 'email' ? 1100 : 720 }}>
      <Stack spacing={0.5}>
        <Typography variant="body1" aria-label="Status">
          {statusLine(integration)}
        </Typography>
        {integration.connection?.apiUrl !== undefined && <Typography variant="body2" color="text.secondary">{integration.connection.apiUrl}</Typography>}
        {integration.connection?.hubId !== undefined && (
          <Typography variant="body2" color="text.secondary">
            HubSpot account {integration.connection.hubId}
            {integration.connection.hubDomain === undefined ? '' : ` (${integration.connection.hubDomain})`}
          </Typography>
        )}
        {integration.connection?.accountName !== undefined && (
          <Typography variant="body2" color="text.secondary" aria-label="CallRail account">
            {integration.connection.accountName} ({integration.connection.accountId ?? ''})
          </Typography>
        )}
        {integration.connection?.companyName !== undefined && (
          <Typography variant="body2" color="text.secondary" aria-label="AirCall company">
            {integration.connection.companyName}
            {integration.connection.companyId === undefined || integration.connection.companyId === '' ? '' : ` (company ${integration.connection.companyId})`}
          </Typography>
        )}
        {integration.connection?.cradleAccount !== undefined && (
          <Typography variant="body2" color="text.secondary" aria-label="Cradle account">
            {integration.connection.cradleAccount}
          </Typography>
        )}
        {integration.connection?.company !== undefined && <Typography variant="body2" color="text.secondary" aria-label="Company">{integration.connection.company}</Typography>}
        {integration.connection?.googleAccount !== undefined && <Typography variant="body2" color="text.secondary" aria-label="Google account">{integration.connection.googleAccount}</Typography>}
        {integration.connection?.workspace !== undefined && <Typography variant="body2" color="text.secondary" aria-label="Workspace">{integration.connection.workspace}</Typography>}
        {integration.errorReason !== undefined && <Alert severity="error">{integration.errorReason}</Alert>}
        {!canManage && <Typography variant="body2" color="text.secondary">Only administrators can change integrations.</Typography>}
      </Stack>
      {canManage && integration.status !== 'connected' && kind === 'activecampaign' && <ActiveCampaignConnectForm accountId={accountId} apiUrl={integration.connection?.apiUrl ?? ''} />}
      {canManage && integration.status !== 'connected' && kind === 'callrail' && <CallRailConnectForm accountId={accountId} callRailAccountId={integration.connection?.accountId ?? ''} />}
      {canManage && integration.status !== 'connected' && kind === 'cradle' && <CradleConnectForm accountId={accountId} />}
      {connected && kind === 'callrail' && <CallRailWebhookUrl integration={integration} />}
      {connected && kind === 'aircall' && <AirCallNumbers accountId={accountId} readOnly={!canManage} />}
      {connected && (kind === 'callrail' || kind === 'aircall' || kind === 'cradle') && (
        <CallPropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} kind={kind} properties={integration.properties} readOnly={!canManage} />
      )}
      {connected && kind === 'activecampaign' && <ActiveCampaignPropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} properties={integration.properties} readOnly={!canManage} />}
      {kind === 'email' && <EmailConnection accountId={accountId} integration={integration} canManage={canManage} />}
      {canManage && integration.status !== 'connected' && integration.auth === 'oauth' && <OAuthConnectButton accountId={accountId} kind={kind} />}
      {connected && kind === 'email' && <EmailPropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} properties={integration.properties} readOnly={!canManage} />}
      {connected && kind === 'hubspot' && <HubSpotPropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} properties={integration.properties} readOnly={!canManage} />}
      {connected && kind === 'pipedrive' && <PipedrivePropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} properties={integration.properties} readOnly={!canManage} />}
      {integration.status === 'connected' && kind === 'googlecalendar' && <GoogleCalendarPropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} properties={integration.properties} readOnly={!canManage} />}
      {connected && kind === 'intercom' && <IntercomPropertiesForm key={JSON.stringify(integration.properties)} accountId={accountId} properties={integration.properties} readOnly={!canManage} />}
      {connected && kind === 'email' && <EmailLog accountId={accountId} />}
      {connected && !WITHOUT_SYNC.includes(kind) && <SyncPanel accountId={accountId} integration={integration} canManage={canManage} tags={kind !== 'pipedrive' && kind !== 'callrail'} />}
      {kind === 'activecampaign' && (
        <Typography variant="body2">
          ActiveCampaign automations send SMS through a template&apos;s web-hook link: see <Link component={RouterLink} to="/templates/sms">SMS Templates</Link>.
        </Typography>
      )}
      {kind === 'hubspot' && (
        <Typography variant="body2">
          HubSpot workflows send SMS with the &quot;Send an SMS with Parley&quot; action, or through a template&apos;s web-hook link: see{' '}
          <Link component={RouterLink} to="/templates/sms">SMS Templates</Link>.
        </Typography>
      )}
      {(kind === 'aircall' || kind === 'cradle') && (
        <Typography variant="body2">
          Each call goes into the caller&apos;s conversation on the account&apos;s number it reached: a conversation is one contact and one of your
          numbers, so calls and texts between the same two numbers stay together.
        </Typography>
      )}
      {kind === 'intercom' && (
        <Typography variant="body2">
          A contact&apos;s text opens or continues an Intercom conversation; an agent&apos;s reply is texted back after the reply delay, and closing the
          conversation on either side closes it on both.
        </Typography>
      )}
      {kind === 'googlecalendar' && (
        <Typography variant="body2">
          On the schedule, the chosen calendar&apos;s events starting within the look-forward hours get the template, once per event and attendee: attendees whose
          e-mail is a contact&apos;s, and numbers written in the event&apos;s location or description. Ask for a reply of C: CANCEL also opts the contact out.
        </Typography>
      )}
      {canManage && connected && (
        <Button color="error" variant="outlined" disabled={disconnect.isPending} onClick={() => { disconnect.mutate(undefined); }} sx={{ alignSelf: 'flex-start' }}>
          Disconnect
        </Button>
      )}
    </Stack>
  );
};
