import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  createAccountUserSchema,
  roleLabels,
  roles,
  updateAccountUserSchema,
  type AccountUser,
  type CreateAccountUser,
  type CreateAccountUserInput,
} from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { z } from 'zod';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { usersQueryKey } from './queries';

/** Editing checks the role only: names belong to the person's profile and the e-mail stays. */
const editUserSchema = updateAccountUserSchema.extend({ firstName: z.string(), lastName: z.string(), email: z.string() });

interface UserDialogProps {
  accountId: string;
  /** The user to edit; absent to add someone. */
  user?: AccountUser;
  onClose: () => void;
}

/** The user dialog: first name, last name, e-mail and role; only the role changes later. */
export const UserDialog = ({ accountId, user, onClose }: UserDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const editing = user !== undefined;
  const schema: z.ZodType<CreateAccountUser, CreateAccountUserInput> = editing ? editUserSchema : createAccountUserSchema;
  const { register, handleSubmit, formState } = useForm<CreateAccountUserInput, unknown, CreateAccountUser>({
    resolver: zodResolver(schema),
    defaultValues: user === undefined ? { firstName: '', lastName: '', email: '' } : user,
  });
  const save = useMutation({
    mutationFn: (values: CreateAccountUser) =>
      user === undefined
        ? api.post(`/v1/accounts/${accountId}/users`, values)
        : api.put(`/v1/accounts/${accountId}/users/${user.id}`, { role: values.role, email: user.email }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: usersQueryKey(accountId) });
      snackbar.show(editing ? 'User updated' : 'User added');
      onClose();
    },
  });
  const submit: SubmitHandler<CreateAccountUser> = (values) => {
    save.mutate(values);
  };
  const e = formState.errors;

  return (
    <Dialog open onClose={onClose} aria-labelledby="user-dialog-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="user-dialog-title">{editing ? 'Edit User' : 'Add User'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField label="First Name" required={!editing} disabled={editing} fullWidth {...register('firstName')} error={!!e.firstName} helperText={e.firstName?.message} />
              <TextField label="Last Name" required={!editing} disabled={editing} fullWidth {...register('lastName')} error={!!e.lastName} helperText={e.lastName?.message} />
            </Stack>
            <TextField label="Email" type="email" required={!editing} disabled={editing} {...register('email')} error={!!e.email} helperText={e.email?.message} />
            <TextField
              select
              label="Role"
              required
              defaultValue={user?.role ?? ''}
              {...register('role')}
              error={!!e.role}
              helperText={e.role?.message}
            >
              {roles.map((role) => (
                <MenuItem key={role} value={role}>
                  {roleLabels[role]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        </DialogContent>
        <DialogFooter label={editing ? 'Save' : 'Add'} onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
