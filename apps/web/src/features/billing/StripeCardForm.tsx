import { zodResolver } from '@hookform/resolvers/zod';
import DialogContent from '@mui/material/DialogContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CardNumberElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { StripeCardNumberElement } from '@stripe/stripe-js';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CardHolderFields } from './CardHolderFields';
import { useStripeCardSetup } from './cardSetup';
import { InvalidPaymentDetails } from './InvalidPaymentDetails';
import { emptyPaymentDetails, invalidPaymentDetails, stripeDetailsSchema, type PaymentDetailsForm, type StripeDetails } from './paymentDetails';
import type { CardFormProps } from './SandboxCardForm';
import { emptyCardFieldStates, incompleteCardFields, type CardFieldStates } from './stripeCardFlow';
import { StripeCardFields } from './StripeCardFields';
import { loadStripeJs } from './stripeLoader';

/** The holder's fields (as the sandbox's) and Stripe's card fields, inside Stripe's Elements. */
const StripeDetailsForm = ({ accountId, onSaved, onCancel, onBusy }: CardFormProps) => {
  const stripe = useStripe();
  const elements = useElements();
  const setup = useStripeCardSetup<StripeCardNumberElement>(accountId);
  const [cardStates, setCardStates] = useState<CardFieldStates>(emptyCardFieldStates);
  // The holder's texts are checked as the sandbox's form checks them; the card is Stripe's to check.
  const { register, handleSubmit, formState } = useForm<PaymentDetailsForm, unknown, StripeDetails>({
    resolver: zodResolver(stripeDetailsSchema),
    defaultValues: emptyPaymentDetails,
  });
  const busy = setup.isPending;
  useEffect(() => {
    onBusy(busy);
  }, [busy, onBusy]);
  const missing = formState.isSubmitted ? incompleteCardFields(cardStates) : {};
  const submit: SubmitHandler<StripeDetails> = (holder) => {
    const card = elements?.getElement(CardNumberElement) ?? null;
    if (stripe === null || card === null || Object.keys(incompleteCardFields(cardStates)).length > 0) return;
    setup.mutate(
      { stripe, card, holder },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'saved') onSaved(outcome.source);
        },
      },
    );
  };
  const invalid = formState.isSubmitted ? [...invalidPaymentDetails(formState.errors), ...Object.values(missing)] : [];

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {invalid.length > 0 && <InvalidPaymentDetails messages={invalid} />}
          <Typography variant="subtitle2" component="h3">
            Card Holder
          </Typography>
          <CardHolderFields register={register} errors={formState.errors} disabled={busy} />
          <Typography variant="subtitle2" component="h3">
            Card
          </Typography>
          <StripeCardFields
            disabled={busy}
            missing={missing}
            onChange={(field, complete) => {
              setCardStates((states) => ({ ...states, [field]: { complete } }));
            }}
          />
          <Typography variant="body2" color="text.secondary">
            The card goes to Stripe, which takes payments for this server; if the card&apos;s bank asks, Stripe shows its check.
          </Typography>
          {busy && <Typography role="status">Waiting for the payment provider to confirm the card…</Typography>}
          {setup.error !== null && <ErrorAlert message={errorMessage(setup.error)} />}
        </Stack>
      </DialogContent>
      <DialogFooter label="Save Card" onCancel={onCancel} cancelDisabled={busy} pending={busy} disabled={stripe === null} />
    </form>
  );
};

/**
 * Payment Details with Stripe (docs/billing.md): Stripe.js is fetched from js.stripe.com when the dialog
 * opens (the sandbox's pages never load it); if it cannot be, the dialog says so and offers to try again.
 */
export const StripeCardForm = ({ publishableKey, ...props }: CardFormProps & { publishableKey: string }) => {
  const stripe = useQuery({
    queryKey: ['stripe.js', publishableKey],
    queryFn: () => loadStripeJs(publishableKey),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  if (stripe.data === undefined) {
    return (
      <>
        <DialogContent>
          {stripe.isError ? (
            <ErrorAlert message={errorMessage(stripe.error)} onRetry={() => void stripe.refetch()} />
          ) : (
            <LinearProgress aria-label="Loading the card form" />
          )}
        </DialogContent>
        <DialogFooter label="Save Card" onCancel={props.onCancel} disabled onAction={props.onCancel} />
      </>
    );
  }
  return (
    <Elements stripe={stripe.data}>
      <StripeDetailsForm {...props} />
    </Elements>
  );
};
