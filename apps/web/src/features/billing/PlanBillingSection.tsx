import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { can, type Account } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { AutoTopupDetail } from './AutoTopupDetail';
import { billingDateText, monthlyChargeText, paymentCardText } from './billingFormat';
import { ChangePlanDialog } from './ChangePlanDialog';
import { PaymentDetailsDialog } from './PaymentDetailsDialog';
import { PlanDetail } from './PlanDetail';
import { usePaymentSource, usePlanStatus, useResetBillingCache } from './queries';

/**
 * The Plan tab's billing: monthly charge, next bill date (with a subscription), the card on file or 'No
 * Payment Setup', the auto top-up summary once a card is on file, and Change Plan, the card's change, the
 * auto top-up's Edit and Reset Cache for administrators.
 */
export const PlanBillingSection = ({ account }: { account: Account }) => {
  const snackbar = useSnackbar();
  const status = usePlanStatus(account.id);
  const card = usePaymentSource(account.id);
  const resetCache = useResetBillingCache(account.id);
  const [open, setOpen] = useState<'plan' | 'card' | null>(null);
  const manage = can(account.user.role, 'billing.manage');
  const next = status.data?.subscription?.activeUntil ?? null;
  const source = card.data?.paymentSource ?? null;
  const failure = status.error ?? card.error;

  return (
    <Stack spacing={2} role="region" aria-label="Billing">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
        <PlanDetail label="Monthly Charge" value={monthlyChargeText(account.plan.price)} />
        {next !== null && <PlanDetail label="Next Bill Date" value={billingDateText(next)} />}
        <PlanDetail label="Payment Card" value={card.isPending ? 'Loading…' : paymentCardText(source)} />
        {source !== null && <AutoTopupDetail accountId={account.id} rule={account.options.autotopup ?? null} manage={manage} />}
      </Box>
      {failure !== null && <ErrorAlert message={errorMessage(failure)} />}
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {manage && (
          <Button
            variant="contained"
            onClick={() => {
              setOpen('plan');
            }}
          >
            Change Plan
          </Button>
        )}
        {manage && (
          <Button
            variant="outlined"
            disabled={card.isPending}
            onClick={() => {
              setOpen('card');
            }}
          >
            {source === null ? 'Add Card' : 'Change Card'}
          </Button>
        )}
        <Button
          variant="outlined"
          onClick={() => {
            void resetCache().then(() => {
              snackbar.show('Plan and prices reloaded');
            });
          }}
        >
          Reset Cache
        </Button>
      </Stack>
      {open === 'plan' && (
        <ChangePlanDialog
          accountId={account.id}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
      {open === 'card' && (
        <PaymentDetailsDialog
          accountId={account.id}
          onSaved={(saved) => {
            setOpen(null);
            snackbar.show(`Card saved: ${paymentCardText(saved)}`);
          }}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
    </Stack>
  );
};
