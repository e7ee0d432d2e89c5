import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  PHONE_NUMBER_UPDATE_FAILED_MESSAGE,
  updatePhoneNumberSchema,
  type PhoneNumber,
  type UpdatePhoneNumber,
  type UpdatePhoneNumberInput,
} from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { configFormValues } from './configForm';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { phoneNumbersQueryKey } from './queries';

interface PhoneNumberConfigDialogProps {
  accountId: string;
  phoneNumber: PhoneNumber;
  onClose: () => void;
}

/** 'Phone Number Configuration': forwarding, universal reply and the name. A failure toasts 'Phone Number Update Failed'. */
export const PhoneNumberConfigDialog = ({ accountId, phoneNumber, onClose }: PhoneNumberConfigDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const display = usePhoneDisplay();
  const { register, control, handleSubmit, formState } = useForm<UpdatePhoneNumberInput, unknown, UpdatePhoneNumber>({
    resolver: zodResolver(updatePhoneNumberSchema),
    defaultValues: configFormValues(phoneNumber),
  });
  const save = useMutation({
    mutationFn: async (values: UpdatePhoneNumber) =>
      (await api.put<{ data: PhoneNumber }>(`/v1/accounts/${accountId}/phonenumbers/${phoneNumber.id}`, values)).data,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: phoneNumbersQueryKey(accountId) });
      snackbar.show('Phone number updated');
      onClose();
    },
    onError: () => {
      snackbar.show(PHONE_NUMBER_UPDATE_FAILED_MESSAGE);
    },
  });
  const submit: SubmitHandler<UpdatePhoneNumber> = (values) => {
    save.mutate(values);
  };
  const e = formState.errors;

  return (
    <Dialog open onClose={onClose} aria-labelledby="phone-number-config-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="phone-number-config-title">Phone Number Configuration</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label="Number" value={display.phone(phoneNumber.number)} disabled />
            <TextField label="Name" {...register('name')} error={!!e.name} helperText={e.name?.message} />
            <TextField
              label="Forward To"
              inputMode="tel"
              placeholder="+14155550123"
              {...register('forwardTo')}
              error={!!e.forwardTo}
              helperText={e.forwardTo?.message ?? 'Calls to this number are forwarded there; empty for none'}
            />
            <Controller
              control={control}
              name="universalReply"
              render={({ field }) => (
                <FormControlLabel
                  label="Universal Reply"
                  control={
                    <Switch
                      checked={field.value === true}
                      onChange={(_event, checked) => {
                        field.onChange(checked);
                      }}
                    />
                  }
                />
              )}
            />
          </Stack>
          {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        </DialogContent>
        <DialogFooter label="Save" onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
