import { zodResolver } from '@hookform/resolvers/zod';
import { countryMenuItems } from '../../components/countryMenuItems';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messageFrequencyUnits, type Account, type UpdateAccount } from '@parley/shared';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { defaultsFormSchema, defaultsFormValues, type DefaultsForm, type DefaultsUpdate } from './defaultsForm';
import { useAccountUpdate } from './queries';

/** The default country and the default message frequency (PUT /v1/accounts/{acc}). */
export const AccountDefaultsForm = ({ account }: { account: Account }) => {
  const snackbar = useSnackbar();
  const save = useAccountUpdate<UpdateAccount>(account.id, '');
  const { register, handleSubmit, formState, reset } = useForm<DefaultsForm, unknown, DefaultsUpdate>({
    resolver: zodResolver(defaultsFormSchema),
    defaultValues: defaultsFormValues(account),
  });
  const submit: SubmitHandler<DefaultsUpdate> = (values) => {
    save.mutate(
      { defaults: { country: values.country, messageFrequency: values.messageFrequency } },
      {
        onSuccess: (saved) => {
          reset(defaultsFormValues(saved));
          snackbar.show('Account defaults saved');
        },
      },
    );
  };
  const e = formState.errors;
  const initial = defaultsFormValues(account);

  return (
    <Stack component="form" noValidate spacing={2} aria-label="Account defaults" onSubmit={(event) => void handleSubmit(submit)(event)}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Defaults
      </Typography>
      <TextField
        select
        label="Default Country"
        defaultValue={initial.country}
        {...register('country')}
        error={!!e.country}
        helperText={e.country?.message}
      >
        {countryMenuItems()}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Default Message Frequency"
          inputMode="numeric"
          {...register('quantity')}
          error={!!e.quantity}
          helperText={e.quantity?.message ?? 'At most this many messages per contact; empty for no limit'}
          sx={{ flex: 1 }}
        />
        <TextField
          select
          label="Per"
          defaultValue={initial.frequency}
          {...register('frequency')}
          error={!!e.frequency}
          helperText={e.frequency?.message}
          sx={{ minWidth: 140 }}
        >
          {messageFrequencyUnits.map((unit) => (
            <MenuItem key={unit} value={unit}>
              {unit}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
      <div>
        <Button type="submit" variant="contained" loading={save.isPending} disabled={!formState.isDirty}>
          Save Defaults
        </Button>
      </div>
    </Stack>
  );
};
