import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AUTO_TOPUP_DAILY_LIMIT, type Account } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { accountQueryKey } from '../../session/queries';
import {
  accountAutoTopupOf,
  autoTopupAmountOptions,
  autoTopupBelowOptions,
  autoTopupFormOf,
  autoTopupRequest,
  autoTopupSavedMessage,
  dollars,
  type AccountAutoTopup,
  type AutoTopupAnswer,
  type AutoTopupForm,
} from './autoTopup';

interface AutoTopupDialogProps {
  accountId: string;
  rule: AccountAutoTopup | null;
  onClose: () => void;
}

interface OptionSelectProps {
  label: string;
  value: number;
  options: readonly number[];
  disabled: boolean;
  onChange: (value: number) => void;
}

const OptionSelect = ({ label, value, options, disabled, onChange }: OptionSelectProps) => (
  <TextField
    select
    label={label}
    value={value}
    disabled={disabled}
    onChange={(event) => {
      onChange(Number(event.target.value));
    }}
    fullWidth
  >
    {options.map((option) => (
      <MenuItem key={option} value={option}>
        {dollars(option)}
      </MenuItem>
    ))}
  </TextField>
);

/** 'Auto Top Up': on with 'below' and 'Top up by' (POST or PUT .../autotopup), or off (DELETE). */
export const AutoTopupDialog = ({ accountId, rule, onClose }: AutoTopupDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [form, setForm] = useState<AutoTopupForm>(() => autoTopupFormOf(rule));
  const save = useMutation({
    mutationFn: async (value: AutoTopupForm) => {
      const request = autoTopupRequest(accountId, value, rule !== null);
      return (await api.request<{ data: AutoTopupAnswer }>(request.path, { method: request.method, body: request.body })).data;
    },
    onSuccess: async (answer) => {
      const saved = accountAutoTopupOf(answer);
      queryClient.setQueryData<Account>(accountQueryKey(accountId), (account) =>
        account === undefined ? account : { ...account, options: { ...account.options, autotopup: saved } },
      );
      await queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true });
      snackbar.show(autoTopupSavedMessage(saved));
      onClose();
    },
  });
  const off = form.enabled !== 'true';
  const close = () => {
    if (!save.isPending) onClose();
  };

  return (
    <Dialog open onClose={close} aria-labelledby="auto-top-up-title" fullWidth maxWidth="xs">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!save.isPending) save.mutate(form);
        }}
      >
        <DialogTitle id="auto-top-up-title">Auto Top Up</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="info">
              When a message takes the balance below the amount chosen, the card on file is charged to top it up (at most{' '}
              {AUTO_TOPUP_DAILY_LIMIT} times a day).
            </Alert>
            <TextField
              select
              label="Enabled"
              value={form.enabled}
              disabled={save.isPending}
              onChange={(event) => {
                setForm({ ...form, enabled: event.target.value === 'true' ? 'true' : 'false' });
              }}
              fullWidth
            >
              <MenuItem value="true">Yes</MenuItem>
              <MenuItem value="false">No</MenuItem>
            </TextField>
            <OptionSelect
              label="When balance is below (USD)"
              value={form.below}
              options={autoTopupBelowOptions}
              disabled={off || save.isPending}
              onChange={(below) => {
                setForm({ ...form, below });
              }}
            />
            <OptionSelect
              label="Top up by (USD)"
              value={form.amount}
              options={autoTopupAmountOptions}
              disabled={off || save.isPending}
              onChange={(amount) => {
                setForm({ ...form, amount });
              }}
            />
            {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
          </Stack>
        </DialogContent>
        <DialogFooter label="Save" onCancel={close} cancelDisabled={save.isPending} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
