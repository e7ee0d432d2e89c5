import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { can, SIMULATOR_EMPTY_MESSAGE, type Role } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { useConfig } from '../../app/configContext';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import type { PageProps } from '../../app/pageProps';
import { NewPhoneForm } from './NewPhoneForm';
import { PhoneCard } from './PhoneCard';
import { useSimulatorNumbers, useSimulatorPhones } from './queries';
import { SettingsPanel } from './SettingsPanel';

/** /simulator: the virtual phones of the simulated carrier (deployments whose carriers include it). */
export const SimulatorPage = ({ title }: PageProps) => {
  const config = useConfig();
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {config.simulator ? (
        <Phones accountId={account.id} role={account.user.role} />
      ) : (
        <Typography color="text.secondary">This deployment sends through real carriers: it has no simulator.</Typography>
      )}
    </>
  );
};

const Phones = ({ accountId, role }: { accountId: string; role: Role }) => {
  const phones = useSimulatorPhones(accountId);
  const numbers = useSimulatorNumbers(accountId);
  const canSend = can(role, 'messages.send');
  const display = usePhoneDisplay();
  const active = numbers.data ?? [];
  const list = phones.data?.data ?? [];

  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Every number this account texts appears here as a virtual phone: it shows what it received and can reply, send
        STOP or send a picture. Receipts arrive after the network&apos;s latency; failures follow its settings.
      </Typography>
      <SettingsPanel accountId={accountId} canManage={can(role, 'account.manage')} />
      {canSend && active.length > 0 && <NewPhoneForm accountId={accountId} numbers={active} />}
      {phones.isError && <ErrorAlert message={errorMessage(phones.error)} onRetry={() => void phones.refetch()} />}
      {phones.isSuccess && list.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
          <Typography>{SIMULATOR_EMPTY_MESSAGE}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {active.length === 0
              ? 'This account has no simulator number yet.'
              : `This account's simulator ${active.length === 1 ? 'number is' : 'numbers are'} ${active.map((n) => display.phone(n.number)).join(', ')}.`}
          </Typography>
        </Paper>
      )}
      {list.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}>
          {list.map((phone) => (
            <PhoneCard key={phone.number} accountId={accountId} phone={phone} numbers={active} canSend={canSend} />
          ))}
        </Box>
      )}
      {phones.data !== undefined && phones.data.pagination.totalCount > list.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {`Showing the ${String(list.length)} phones with the newest activity of ${String(phones.data.pagination.totalCount)}.`}
        </Typography>
      )}
    </>
  );
};
