import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PaymentSource } from '@parley/shared';
import { useId, useState } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useIsPhone } from '../../components/useIsPhone';
import { CardFields, CardHolderFields } from './CardHolderFields';
import { useSandboxCardSetup } from './cardSetup';
import {
  emptyPaymentDetails,
  INVALID_PAYMENT_DETAILS_TITLE,
  invalidPaymentDetails,
  paymentDetailsSchema,
  type PaymentDetails,
  type PaymentDetailsForm,
} from './paymentDetails';
import { usePaymentSource } from './queries';
import { SandboxAuthenticationStep } from './SandboxAuthenticationStep';
import { SandboxTestCards } from './SandboxTestCards';

interface PaymentDetailsDialogProps {
  accountId: string;
  /** The card is on file: the provider confirmed it. */
  onSaved: (source: PaymentSource) => void;
  onClose: () => void;
}

const InvalidDetails = ({ messages }: { messages: string[] }) => (
  <Alert severity="error" role="alert">
    <AlertTitle>{INVALID_PAYMENT_DETAILS_TITLE}</AlertTitle>
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </Box>
  </Alert>
);

/** Stripe's card form (Stripe Elements) is not part of this web app yet (docs/billing.md, Web pages). */
const StripeNotice = () => (
  <Alert severity="info">
    This server takes cards through Stripe. Entering a card with Stripe&apos;s card form is not available in this web app yet;
    the API takes a Stripe PaymentMethod as the tokenId of PUT /v1/accounts/&#123;acc&#125;/paymentsource.
  </Alert>
);

/**
 * Payment Details: the card holder and the card. With the sandbox, its card form makes a token, the account
 * saves it and a card that asks for it is authenticated on the sandbox's 3-D Secure step; the dialog closes
 * once the provider has confirmed the card (docs/billing.md).
 */
export const PaymentDetailsDialog = ({ accountId, onSaved, onClose }: PaymentDetailsDialogProps) => {
  const titleId = useId();
  const phone = useIsPhone();
  const provider = usePaymentSource(accountId);
  const { save, authenticate } = useSandboxCardSetup(accountId);
  const [pendingAuth, setPendingAuth] = useState<{ details: PaymentDetails; clientSecret: string } | null>(null);
  const { register, handleSubmit, formState } = useForm<PaymentDetailsForm, unknown, PaymentDetails>({
    resolver: zodResolver(paymentDetailsSchema),
    defaultValues: emptyPaymentDetails,
  });
  const busy = save.isPending || authenticate.isPending;
  const sandbox = provider.data?.provider === 'sandbox';
  const submit: SubmitHandler<PaymentDetails> = (details) => {
    authenticate.reset();
    save.mutate(details, {
      onSuccess: (outcome) => {
        if (outcome.kind === 'saved') onSaved(outcome.source);
        else setPendingAuth({ details, clientSecret: outcome.clientSecret });
      },
    });
  };
  const answer = (approve: boolean) => {
    if (pendingAuth === null) return;
    authenticate.mutate(
      { ...pendingAuth, approve },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'saved') onSaved(outcome.source);
        },
        onSettled: () => {
          setPendingAuth(null);
        },
      },
    );
  };
  const close = () => {
    if (!busy) onClose();
  };
  const invalid = formState.isSubmitted ? invalidPaymentDetails(formState.errors) : [];
  const failure = save.error ?? authenticate.error;

  return (
    <Dialog open onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>Payment Details</DialogTitle>
        <DialogContent>
          {provider.isPending && <LinearProgress aria-label="Loading payment provider" />}
          {provider.isError && <ErrorAlert message={errorMessage(provider.error)} onRetry={() => void provider.refetch()} />}
          {provider.data?.provider === 'stripe' && <StripeNotice />}
          {sandbox && (
            <Stack spacing={2} sx={{ pt: 1 }}>
              {invalid.length > 0 && <InvalidDetails messages={invalid} />}
              {pendingAuth === null ? (
                <>
                  <Typography variant="subtitle2" component="h3">
                    Card Holder
                  </Typography>
                  <CardHolderFields register={register} errors={formState.errors} disabled={busy} />
                  <Typography variant="subtitle2" component="h3">
                    Card
                  </Typography>
                  <CardFields register={register} errors={formState.errors} disabled={busy} />
                  <SandboxTestCards />
                </>
              ) : (
                <SandboxAuthenticationStep purpose="saving this card" pending={authenticate.isPending} onAnswer={answer} />
              )}
              {busy && <Typography role="status">Waiting for the payment provider to confirm the card…</Typography>}
              {failure !== null && <ErrorAlert message={errorMessage(failure)} />}
            </Stack>
          )}
        </DialogContent>
        <DialogFooter label="Save Card" onCancel={close} cancelDisabled={busy} pending={save.isPending} disabled={!sandbox || pendingAuth !== null} />
      </form>
    </Dialog>
  );
};
