import { zodResolver } from '@hookform/resolvers/zod';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PaymentSource } from '@parley/shared';
import { useEffect, useState } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CardFields, CardHolderFields } from './CardHolderFields';
import { useSandboxCardSetup } from './cardSetup';
import { InvalidPaymentDetails } from './InvalidPaymentDetails';
import { emptyPaymentDetails, invalidPaymentDetails, paymentDetailsSchema, type PaymentDetails, type PaymentDetailsForm } from './paymentDetails';
import { SandboxAuthenticationStep } from './SandboxAuthenticationStep';
import { SandboxTestCards } from './SandboxTestCards';

export interface CardFormProps {
  accountId: string;
  /** The card is on file: the provider confirmed it. */
  onSaved: (source: PaymentSource) => void;
  onCancel: () => void;
  /** A save is under way: the dialog may not close. */
  onBusy: (busy: boolean) => void;
}

/**
 * The sandbox's Payment Details: its card form makes a token, the account saves it, and a card that asks
 * for it is authenticated on the sandbox's 3-D Secure step (docs/billing.md).
 */
export const SandboxCardForm = ({ accountId, onSaved, onCancel, onBusy }: CardFormProps) => {
  const { save, authenticate } = useSandboxCardSetup(accountId);
  const [pendingAuth, setPendingAuth] = useState<{ details: PaymentDetails; clientSecret: string } | null>(null);
  const { register, handleSubmit, formState } = useForm<PaymentDetailsForm, unknown, PaymentDetails>({
    resolver: zodResolver(paymentDetailsSchema),
    defaultValues: emptyPaymentDetails,
  });
  const busy = save.isPending || authenticate.isPending;
  useEffect(() => {
    onBusy(busy);
  }, [busy, onBusy]);
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
  const invalid = formState.isSubmitted ? invalidPaymentDetails(formState.errors) : [];
  const failure = save.error ?? authenticate.error;

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {invalid.length > 0 && <InvalidPaymentDetails messages={invalid} />}
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
      </DialogContent>
      <DialogFooter label="Save Card" onCancel={onCancel} cancelDisabled={busy} pending={save.isPending} disabled={pendingAuth !== null} />
    </form>
  );
};
