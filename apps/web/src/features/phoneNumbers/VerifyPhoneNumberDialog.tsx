import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  VERIFICATION_CODE_LENGTH,
  verifyPhoneNumberSchema,
  type PhoneNumber,
  type VerificationCall,
  type VerifyPhoneNumber,
  type VerifyPhoneNumberInput,
} from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { phoneNumbersQueryKey } from './queries';

interface VerifyPhoneNumberDialogProps {
  accountId: string;
  phoneNumberId: string;
  /** The number, to say where the call goes; null while the list has not caught up. */
  number: string | null;
  onClose: () => void;
}

/** 'Verify Phone Number': a call reads out a 6-digit code, which is typed in here. */
export const VerifyPhoneNumberDialog = ({ accountId, phoneNumberId, number, onClose }: VerifyPhoneNumberDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const display = usePhoneDisplay();
  const base = `/v1/accounts/${accountId}/phonenumbers/${phoneNumberId}/verify`;
  const call = useMutation({
    mutationFn: async () => (await api.get<{ data: VerificationCall }>(base)).data,
  });
  const verify = useMutation({
    mutationFn: async (values: VerifyPhoneNumber) => (await api.post<{ data: PhoneNumber }>(base, values)).data,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: phoneNumbersQueryKey(accountId) });
      snackbar.show('Phone number verified');
      onClose();
    },
  });
  const { register, handleSubmit, formState } = useForm<VerifyPhoneNumberInput, unknown, VerifyPhoneNumber>({
    resolver: zodResolver(verifyPhoneNumberSchema),
    defaultValues: { code: '' },
  });
  const submit: SubmitHandler<VerifyPhoneNumber> = (values) => {
    verify.mutate(values);
  };
  const placed = call.data ?? null;
  const shown = placed?.number ?? number;
  const target = shown === null ? 'the number' : display.phone(shown);

  return (
    <Dialog open onClose={onClose} aria-labelledby="verify-phone-number-title" fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="verify-phone-number-title">Verify Phone Number</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            {placed === null ? (
              <Typography>
                We will call {target} and read out a {VERIFICATION_CODE_LENGTH}-digit code. Answer the call, then type the code here.
              </Typography>
            ) : (
              <>
                <Typography>
                  Calling {target}. Type the {VERIFICATION_CODE_LENGTH}-digit code you hear; it is good for 10 minutes.
                </Typography>
                <TextField
                  label="Code"
                  required
                  autoFocus
                  autoComplete="one-time-code"
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: VERIFICATION_CODE_LENGTH } }}
                  {...register('code')}
                  error={!!formState.errors.code}
                  helperText={formState.errors.code?.message}
                />
              </>
            )}
            {call.isError && <ErrorAlert message={errorMessage(call.error)} />}
            {verify.isError && <ErrorAlert message={errorMessage(verify.error)} />}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant={placed === null ? 'contained' : 'text'}
            loading={call.isPending}
            onClick={() => {
              verify.reset();
              call.mutate();
            }}
          >
            {placed === null ? 'Call me' : 'Call again'}
          </Button>
          {placed !== null && (
            <Button type="submit" variant="contained" loading={verify.isPending}>
              Verify
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
};
