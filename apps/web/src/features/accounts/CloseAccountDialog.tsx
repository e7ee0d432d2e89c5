import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { closeAccountSchema, type CloseAccount } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';

type Form = z.input<typeof closeAccountSchema>;

/** Closing sends the feedback and signs the user out. */
export const CloseAccountDialog = ({ accountId, onCancel }: { accountId: string; onCancel: () => void }) => {
  const api = useApiClient();
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm<Form, unknown, CloseAccount>({
    resolver: zodResolver(closeAccountSchema),
    defaultValues: { feedback: '' },
  });
  const close = useMutation({
    mutationFn: (body: CloseAccount) => api.post(`/v1/accounts/${accountId}/close`, body),
    onSuccess: () => navigate('/logout'),
  });
  const submit: SubmitHandler<CloseAccount> = (values) => {
    close.mutate(values);
  };
  return (
    <Dialog open onClose={onCancel} aria-labelledby="close-account-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="close-account-title">Close Account</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Everyone loses access to this account and you will be signed out. Please tell us why you are leaving.
          </DialogContentText>
          <TextField
            label="Feedback"
            required
            fullWidth
            multiline
            minRows={3}
            {...register('feedback')}
            error={!!formState.errors.feedback}
            helperText={formState.errors.feedback?.message}
          />
          {close.isError && <ErrorAlert message={errorMessage(close.error)} />}
        </DialogContent>
        <DialogFooter label="Close Account" color="error" onCancel={onCancel} pending={close.isPending} />
      </form>
    </Dialog>
  );
};
