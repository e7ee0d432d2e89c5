import CloseIcon from '@mui/icons-material/Close';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CatalogPlan } from '@parley/shared';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PaymentDetailsDialog } from './PaymentDetailsDialog';
import { comparedPlans } from './planCatalog';
import { usePlanChange, type PlanChangeStep } from './planChange';
import { PlanChangeProgress } from './PlanChangeProgress';
import { PlanComparisonTable } from './PlanComparisonTable';
import { usePaymentSource, usePlanCatalog } from './queries';
import { SandboxAuthenticationStep } from './SandboxAuthenticationStep';
import { SegmentConfirmation } from './SegmentConfirmation';

/**
 * Change Plan, full screen: the plans compared, one chosen, the segment-understanding confirmation, the
 * payment details first when no card is on file, then the change; 'Your request is being processed.' until
 * the provider confirms it and the new plan shows (docs/billing.md).
 */
export const ChangePlanDialog = ({ accountId, onClose }: { accountId: string; onClose: () => void }) => {
  const titleId = useId();
  const catalog = usePlanCatalog(accountId);
  const card = usePaymentSource(accountId);
  const { change, authenticate } = usePlanChange(accountId);
  const [step, setStep] = useState<PlanChangeStep>({ kind: 'compare' });
  const hasCard = card.data?.paymentSource != null;
  const busy = change.isPending || authenticate.isPending;
  const requestChange = (plan: CatalogPlan, understoodAt: string) => {
    change.mutate({ plan, understoodAt }, { onSuccess: setStep });
  };
  const close = () => {
    if (!busy) onClose();
  };
  const failure = change.error ?? authenticate.error ?? card.error;

  return (
    <Dialog open fullScreen onClose={close} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Change Plan
        <IconButton aria-label="Close" onClick={close} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {step.kind === 'compare' && (
            <>
              <Typography color="text.secondary">
                Each plan has a monthly charge (USD plus local taxes) and its prices per message segment; the monthly charge buys
                the segments shown. Choose a plan to see what changes.
              </Typography>
              {catalog.isError && <ErrorAlert message={errorMessage(catalog.error)} onRetry={() => void catalog.refetch()} />}
              <PlanComparisonTable
                plans={comparedPlans(catalog.data?.data ?? [])}
                loading={catalog.isPending}
                onSelect={(plan) => {
                  change.reset();
                  setStep({ kind: 'confirm', plan });
                }}
              />
            </>
          )}
          {(step.kind === 'confirm' || step.kind === 'payment') && (
            <SegmentConfirmation
              plan={step.plan}
              hasCard={hasCard}
              pending={change.isPending}
              onBack={() => {
                setStep({ kind: 'compare' });
              }}
              onConfirm={(understoodAt) => {
                if (hasCard) requestChange(step.plan, understoodAt);
                else setStep({ kind: 'payment', plan: step.plan, understoodAt });
              }}
            />
          )}
          {step.kind === 'authenticate' && (
            <SandboxAuthenticationStep
              purpose="this plan change"
              pending={authenticate.isPending}
              onAnswer={(approve) => {
                authenticate.mutate({ plan: step.plan, clientSecret: step.clientSecret, approve }, { onSuccess: setStep });
              }}
            />
          )}
          {step.kind === 'processing' && <PlanChangeProgress accountId={accountId} plan={step.plan} until={step.until} onClose={onClose} />}
          {failure !== null && <ErrorAlert message={errorMessage(failure)} />}
        </Stack>
      </DialogContent>
      {step.kind === 'payment' && (
        <PaymentDetailsDialog
          accountId={accountId}
          onSaved={() => {
            // Back to the plan, where the change shows its progress (or its failure), the card now on file.
            setStep({ kind: 'confirm', plan: step.plan });
            requestChange(step.plan, step.understoodAt);
          }}
          onClose={() => {
            setStep({ kind: 'confirm', plan: step.plan });
          }}
        />
      )}
    </Dialog>
  );
};
