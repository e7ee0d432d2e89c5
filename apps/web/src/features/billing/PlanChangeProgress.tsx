import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PLAN_CHANGE_PROCESSING_MESSAGE, type CatalogPlan } from '@parley/shared';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { accountQueryKey, accountsQueryKey } from '../../session/queries';
import { billingDateText, monthlyChargeText } from './billingFormat';
import { invoicesQueryKey, planCatalogQueryKey, usePlanStatus } from './queries';

interface PlanChangeProgressProps {
  accountId: string;
  plan: CatalogPlan;
  /** Follow the account's plan until then (epoch ms). */
  until: number;
  onClose: () => void;
}

/**
 * 'The request is being processed', then the new plan once the provider confirmed it: the account's plan is
 * asked again every few seconds (as the Plan tab follows the balance after a top-up) until it moves.
 */
export const PlanChangeProgress = ({ accountId, plan, until, onClose }: PlanChangeProgressProps) => {
  const queryClient = useQueryClient();
  const status = usePlanStatus(accountId, { planId: plan.id, until });
  const done = status.data?.plan.id === plan.id;
  useEffect(() => {
    if (!done) return;
    // The account (top bar, Plan tab), the catalog's current plan and the new invoice follow.
    void queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true });
    // The account chooser's row names the plan too: the top bar's Upgrade follows it.
    void queryClient.invalidateQueries({ queryKey: accountsQueryKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: planCatalogQueryKey(accountId) });
    void queryClient.invalidateQueries({ queryKey: invoicesQueryKey(accountId) });
  }, [done, queryClient, accountId]);

  if (done) {
    const next = status.data?.subscription?.activeUntil ?? null;
    return (
      <Stack spacing={2} sx={{ maxWidth: 640 }} role="status">
        <Alert severity="success">Your account is now on the {plan.name} plan.</Alert>
        <Typography data-testid="changed-plan">
          {plan.name}: {monthlyChargeText(plan.price)}
          {next === null ? '' : `, next bill on ${billingDateText(next)}`}
        </Typography>
        <div>
          <Button variant="contained" onClick={onClose}>
            Done
          </Button>
        </div>
      </Stack>
    );
  }
  const late = Date.now() >= until && !status.isFetching;
  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }} role="status">
      <Alert severity="info">{PLAN_CHANGE_PROCESSING_MESSAGE}</Alert>
      {late ? (
        <Typography>The payment provider has not confirmed the change yet; the Plan tab shows the new plan once it does.</Typography>
      ) : (
        <LinearProgress aria-label="Waiting for the payment provider" />
      )}
      <div>
        <Button onClick={onClose}>Close</Button>
      </div>
    </Stack>
  );
};
