import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatMoney, TOPUP_PROCESSING_MESSAGE, type Account, type TopupResult } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { ApiError, errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { accountQueryKey } from '../../session/queries';
import { SandboxAuthenticationStep } from './SandboxAuthenticationStep';
import { usePaymentsClient } from './stripeLoader';
import {
  afterTopUp,
  chargesQueryKey,
  defaultTopUpAmount,
  isTopUpAmount,
  newIdempotencyKey,
  TOPUP_AUTHENTICATION_REFUSED_MESSAGE,
  topUpAmounts,
  topUpRequest,
  type TopUpAmount,
  type TopUpOutcome,
} from './topUp';

interface TopUpDialogProps {
  accountId: string;
  balance: string;
  /** The payment is on its way: the balance (`balance`, unchanged yet) moves when the provider confirms it. */
  onProcessing: (balance: string) => void;
  onClose: () => void;
}

/**
 * 'top up balance', paid with the card on file through the payment provider: the dialog closes with a
 * notice that the payment is processing (docs/billing.md), once the card holder has authenticated it when
 * the bank asks (Stripe.js's check, or the sandbox's page here). One Idempotency-Key per opening, so a
 * double click or a retry pays once.
 */
export const TopUpDialog = ({ accountId, balance, onProcessing, onClose }: TopUpDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [amount, setAmount] = useState<TopUpAmount>(defaultTopUpAmount);
  const [idempotencyKey, setIdempotencyKey] = useState(() => newIdempotencyKey());
  // A payment the card holder did not authenticate is over: Confirm again is a new payment, with a new key.
  const renewKey = () => {
    setIdempotencyKey(newIdempotencyKey());
  };
  const [pendingAuth, setPendingAuth] = useState<{ clientSecret: string; balance: string } | null>(null);
  const payments = usePaymentsClient();
  const finish = (outcome: TopUpOutcome, current: string) => {
    if (outcome.kind === 'authenticate') {
      setPendingAuth({ clientSecret: outcome.clientSecret, balance: current });
      return;
    }
    if (outcome.kind === 'processing') onProcessing(current);
    snackbar.show(outcome.kind === 'failed' ? outcome.message : TOPUP_PROCESSING_MESSAGE);
    onClose();
  };
  const topUp = useMutation({
    mutationFn: async (value: TopUpAmount) => {
      const request = topUpRequest(accountId, value, idempotencyKey);
      const result = (await api.post<TopupResult>(request.path, request.body, { headers: request.headers })).data;
      try {
        return { result, outcome: await afterTopUp(result, payments?.provider === 'stripe' ? payments.loadStripe : null) };
      } catch (error) {
        renewKey();
        throw error;
      }
    },
    onSuccess: async ({ result, outcome }) => {
      // The balance moves when the provider confirms the payment (docs/billing.md); the refetch shows it then.
      queryClient.setQueryData<Account>(accountQueryKey(accountId), (account) =>
        account === undefined ? account : { ...account, balance: result.balance },
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true }),
        queryClient.invalidateQueries({ queryKey: chargesQueryKey(accountId) }),
      ]);
      finish(outcome, result.balance);
    },
  });
  // The sandbox's authentication page (Stripe's is Stripe.js's own, inside the top-up above).
  const authenticate = useMutation({
    mutationFn: async ({ clientSecret, approve }: { clientSecret: string; approve: boolean }) => {
      await api.post('/v1/billing/sandbox/authenticate', { clientSecret, approve });
      if (!approve) throw new ApiError(TOPUP_AUTHENTICATION_REFUSED_MESSAGE);
    },
    onError: renewKey,
    onSettled: () => {
      setPendingAuth(null);
    },
  });
  const busy = topUp.isPending || authenticate.isPending;
  const close = () => {
    // A payment on its way is not abandoned by closing: its answer would be lost, not its credit.
    if (!busy) onClose();
  };

  return (
    <Dialog open onClose={close} aria-labelledby="top-up-title" fullWidth maxWidth="xs">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy && pendingAuth === null) topUp.mutate(amount);
        }}
      >
        <DialogTitle id="top-up-title">Top Up Balance</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Alert severity="info">
              Paid with the card on file. The balance updates once the payment provider confirms the payment; the sandbox
              provider moves no real money.
            </Alert>
            <Typography>Current balance: ${formatMoney(balance)}</Typography>
            <TextField
              select
              label="Amount (USD)"
              value={amount}
              onChange={(event) => {
                const value = Number(event.target.value);
                if (isTopUpAmount(value)) setAmount(value);
              }}
              disabled={busy || pendingAuth !== null}
              fullWidth
            >
              {topUpAmounts.map((option) => (
                <MenuItem key={option} value={option}>
                  ${option.toLocaleString('en-US')}
                </MenuItem>
              ))}
            </TextField>
            {pendingAuth !== null && (
              <SandboxAuthenticationStep
                purpose="this payment"
                pending={authenticate.isPending}
                onAnswer={(approve) => {
                  const { clientSecret, balance: now } = pendingAuth;
                  authenticate.mutate({ clientSecret, approve }, { onSuccess: () => { finish({ kind: 'processing' }, now); } });
                }}
              />
            )}
            {topUp.isError && <ErrorAlert message={errorMessage(topUp.error)} />}
            {authenticate.isError && <ErrorAlert message={errorMessage(authenticate.error)} />}
          </Stack>
        </DialogContent>
        <DialogFooter label="Confirm" onCancel={close} cancelDisabled={busy} pending={topUp.isPending} disabled={pendingAuth !== null} />
      </form>
    </Dialog>
  );
};
