import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can, formatMoney, showsTopup, type Account } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAccount, type BalanceFollow } from '../../session/queries';
import { AccountDefaultsForm } from './AccountDefaultsForm';
import { AccountOptionSwitches } from './AccountOptionSwitches';
import { ApiCredentialsSection } from '../identity';
import { CloseAccountDialog } from './CloseAccountDialog';
import { QuietHoursForm } from './QuietHoursForm';
import { ReportDownloadsSection } from '../reports';
import { approximateMessageCount, PlanBillingSection, PlanDetail, TopUpDialog, TrialPlanSection } from '../billing';

/** How long the Plan tab follows the balance after a top-up: the settle job delivers within a minute. */
const TOPUP_FOLLOW_MS = 90_000;

const balanceText = (account: Account): string => {
  const count = approximateMessageCount(account.balance, account.plan.pricing, account.defaults.country.code);
  const balance = `$${formatMoney(account.balance)}`;
  return count === null ? balance : `${balance} (approx. ${count.toLocaleString()} outbound messages)`;
};

export const PlanTab = ({ accountId }: { accountId: string }) => {
  const [follow, setFollow] = useState<BalanceFollow | null>(null);
  const account = useAccount(accountId, follow);
  const [closing, setClosing] = useState(false);
  const [toppingUp, setToppingUp] = useState(false);
  if (account.isPending) return <LinearProgress aria-label="Loading account" />;
  if (account.isError) return <ErrorAlert message={errorMessage(account.error)} onRetry={() => void account.refetch()} />;
  const data = account.data;
  // Administrators of paid plans, on every deployment: the sandbox and Stripe both take top-ups.
  const topUp = showsTopup({ role: data.user.role, isTrial: data.plan.isTrial });

  return (
    <Stack spacing={3} divider={<Divider flexItem />}>
      {data.plan.isTrial && data.trial !== undefined && <TrialPlanSection trial={data.trial} />}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
        <PlanDetail label="Account Name" value={data.name} />
        <PlanDetail label="Country" value={data.defaults.country.name} />
        <PlanDetail label="Plan" value={data.plan.isTrial ? `${data.plan.name} (trial)` : data.plan.name} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <PlanDetail label="Balance" value={balanceText(data)} />
          {topUp && (
            <Button
              variant="outlined"
              size="small"
              onClick={() => {
                setToppingUp(true);
              }}
            >
              Topup
            </Button>
          )}
        </Box>
      </Box>
      <PlanBillingSection account={data} />
      <AccountDefaultsForm account={data} />
      <AccountOptionSwitches account={data} />
      <QuietHoursForm account={data} />
      <ApiCredentialsSection accountId={accountId} />
      {can(data.user.role, 'reports.download') && <ReportDownloadsSection accountId={accountId} />}
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          Close Account
        </Typography>
        <Alert severity="warning" sx={{ mb: 1 }}>
          Closing the account removes everyone's access to it.
        </Alert>
        <Button
          color="error"
          variant="outlined"
          onClick={() => {
            setClosing(true);
          }}
        >
          Close Account
        </Button>
      </Box>
      {toppingUp && (
        <TopUpDialog
          accountId={accountId}
          balance={data.balance}
          onProcessing={(balance) => {
            // The provider confirms within a minute at most (docs/billing.md): the balance is followed that long.
            setFollow({ from: balance, until: Date.now() + TOPUP_FOLLOW_MS });
          }}
          onClose={() => {
            setToppingUp(false);
          }}
        />
      )}
      {closing && (
        <CloseAccountDialog
          accountId={accountId}
          onCancel={() => {
            setClosing(false);
          }}
        />
      )}
    </Stack>
  );
};
