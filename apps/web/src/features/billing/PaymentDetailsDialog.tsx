import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import type { PaymentSource } from '@parley/shared';
import { lazy, Suspense, useId, useState } from 'react';
import { useIsPhone } from '../../components/useIsPhone';
import { SandboxCardForm } from './SandboxCardForm';
import { usePaymentsClient } from './stripeLoader';

// Stripe's Elements and its React bindings load only on a Stripe deployment, with this dialog.
const StripeCardForm = lazy(() => import('./StripeCardForm').then((m) => ({ default: m.StripeCardForm })));

interface PaymentDetailsDialogProps {
  accountId: string;
  /** The card is on file: the provider confirmed it. */
  onSaved: (source: PaymentSource) => void;
  onClose: () => void;
}

const Loading = () => (
  <DialogContent>
    <LinearProgress aria-label="Loading the card form" />
  </DialogContent>
);

/**
 * Payment Details: the card holder and the card, with the deployment's provider's card form (the sandbox's,
 * or Stripe's Elements); the dialog closes once the provider has confirmed the card (docs/billing.md).
 */
export const PaymentDetailsDialog = ({ accountId, onSaved, onClose }: PaymentDetailsDialogProps) => {
  const titleId = useId();
  const phone = useIsPhone();
  const payments = usePaymentsClient();
  const [busy, setBusy] = useState(false);
  const close = () => {
    if (!busy) onClose();
  };
  const form = { accountId, onSaved, onCancel: close, onBusy: setBusy };

  return (
    <Dialog open onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle id={titleId}>Payment Details</DialogTitle>
      {payments === null && <Loading />}
      {payments?.provider === 'sandbox' && <SandboxCardForm {...form} />}
      {payments?.provider === 'stripe' && (
        <Suspense fallback={<Loading />}>
          <StripeCardForm publishableKey={payments.publishableKey} {...form} />
        </Suspense>
      )}
    </Dialog>
  );
};
