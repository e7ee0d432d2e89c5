import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { quietHoursInputSchema, type Account, type QuietHours, type UpdateAccount } from '@parley/shared';
import { Controller, useForm, useWatch, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useAccountUpdate } from './queries';

/**
 * Quiet hours (PUT /v1/accounts/{acc} quietHours): messages go between the start and the end of the
 * recipient's own day; one queued outside them waits for the next start. A start after the end spans midnight.
 */
export const QuietHoursForm = ({ account }: { account: Account }) => {
  const snackbar = useSnackbar();
  const save = useAccountUpdate<UpdateAccount>(account.id, '');
  const { register, handleSubmit, formState, reset, control } = useForm<QuietHours>({
    resolver: zodResolver(quietHoursInputSchema),
    defaultValues: account.quietHours,
  });
  const enabled = useWatch({ control, name: 'enabled' });
  const submit: SubmitHandler<QuietHours> = (values) => {
    save.mutate(
      { quietHours: values },
      {
        onSuccess: (saved) => {
          reset(saved.quietHours);
          snackbar.show('Quiet hours saved');
        },
      },
    );
  };
  const e = formState.errors;

  return (
    <Stack component="form" noValidate spacing={2} aria-label="Quiet hours" onSubmit={(event) => void handleSubmit(submit)(event)}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Quiet Hours
      </Typography>
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch
                checked={field.value}
                onChange={(event) => {
                  field.onChange(event.target.checked);
                }}
              />
            }
            label="Send only between these hours of the recipient's local time"
          />
        )}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="From"
          type="time"
          disabled={!enabled}
          {...register('start')}
          error={!!e.start}
          helperText={e.start?.message}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: 1 }}
        />
        <TextField
          label="Until"
          type="time"
          disabled={!enabled}
          {...register('end')}
          error={!!e.end}
          helperText={e.end?.message ?? 'Messages queued outside these hours wait until they begin'}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: 1 }}
        />
      </Stack>
      {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
      <div>
        <Button type="submit" variant="contained" loading={save.isPending} disabled={!formState.isDirty}>
          Save Quiet Hours
        </Button>
      </div>
    </Stack>
  );
};
