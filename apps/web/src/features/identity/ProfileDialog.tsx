import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { profileUpdateSchema, type Profile } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type SubmitHandler } from 'react-hook-form';
import type { z } from 'zod';
import { DialogFooter } from '../../components/DialogFooter';
import { countryMenuItems } from '../../components/countryMenuItems';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { profileQueryKey } from '../../session/queries';

type ProfileForm = z.input<typeof profileUpdateSchema>;

interface ProfileDialogProps {
  profile: Profile;
  /** First login: Cancel signs out. From the account menu: Cancel closes. */
  onCancel: () => void;
  /** From the account menu: the dialog closes once the profile is saved (first login moves on by itself). */
  onSaved?: () => void;
  /** 'firstLogin' asks to complete the profile; 'edit' is the account menu's Profile, with the e-mail shown. */
  mode?: 'firstLogin' | 'edit';
}

/**
 * The profile form: first and last name and mobile, all required, validated by the shared schema and
 * saved with PUT /v1/profile. First-login check 2 (a mobile number and country are required; Cancel signs
 * out), and the account menu's Profile, where the e-mail is shown and cannot be changed.
 */
export const ProfileDialog = ({ profile, onCancel, onSaved, mode = 'firstLogin' }: ProfileDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState } = useForm<ProfileForm, unknown, z.output<typeof profileUpdateSchema>>({
    resolver: zodResolver(profileUpdateSchema),
    defaultValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      mobile: { country: profile.mobile?.country ?? 'US', number: profile.mobile?.number ?? '' },
    },
  });
  const save = useMutation({
    mutationFn: (body: z.output<typeof profileUpdateSchema>) => api.put('/v1/profile', body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
      onSaved?.();
    },
  });
  const submit: SubmitHandler<z.output<typeof profileUpdateSchema>> = (values) => {
    save.mutate(values);
  };
  const errors = formState.errors;
  return (
    <Dialog open onClose={mode === 'edit' ? onCancel : undefined} aria-labelledby="profile-title" fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="profile-title">Profile</DialogTitle>
        <DialogContent>
          {mode === 'firstLogin' && <DialogContentText sx={{ mb: 2 }}>Please complete your profile to continue.</DialogContentText>}
          <Stack spacing={2} sx={mode === 'edit' ? { pt: 1 } : undefined}>
            {mode === 'edit' && (
              <TextField label="Email" value={profile.email} slotProps={{ htmlInput: { readOnly: true } }} helperText="Your sign-in address" />
            )}
            <TextField label="First Name" {...register('firstName')} error={!!errors.firstName} helperText={errors.firstName?.message} />
            <TextField label="Last Name" {...register('lastName')} error={!!errors.lastName} helperText={errors.lastName?.message} />
            <TextField
              select
              label="Country"
              defaultValue={profile.mobile?.country ?? 'US'}
              {...register('mobile.country')}
              error={!!errors.mobile?.country}
              helperText={errors.mobile?.country?.message}
            >
              {countryMenuItems()}
            </TextField>
            <TextField
              label="Mobile"
              type="tel"
              {...register('mobile.number')}
              error={!!errors.mobile?.number}
              helperText={errors.mobile?.number?.message}
            />
          </Stack>
          {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        </DialogContent>
        <DialogFooter label="Save" onCancel={onCancel} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
