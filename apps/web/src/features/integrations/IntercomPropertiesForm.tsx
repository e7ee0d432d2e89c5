import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { changedProperties, INTERCOM_DEFAULT_PROPERTIES, intercomPropertiesSchema, intercomReplyDelays, type IntercomProperties } from '@parley/shared';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSaveProperties } from './queries';

const delayLabel = (minutes: number): string => (minutes === 0 ? 'No delay' : `${String(minutes)} minutes`);

const propertiesOf = (properties: Record<string, unknown>): IntercomProperties => {
  const parsed = intercomPropertiesSchema.safeParse({ ...INTERCOM_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : INTERCOM_DEFAULT_PROPERTIES;
};

/** Intercom's properties: the reply delay; saving needs a change, and only the changed field is sent. */
export const IntercomPropertiesForm = ({ accountId, properties, readOnly }: { accountId: string; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const save = useSaveProperties(accountId, 'intercom');
  const { control, handleSubmit, formState, reset } = useForm<IntercomProperties>({ resolver: zodResolver(intercomPropertiesSchema), defaultValues: initial });
  const submit: SubmitHandler<IntercomProperties> = (values) => {
    save.mutate(changedProperties(initial, values), {
      onSuccess: () => {
        reset(values);
      },
    });
  };
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)} aria-label="Properties">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <Typography variant="h2">Properties</Typography>
        {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        <Controller
          control={control}
          name="replyDelayMinutes"
          render={({ field }) => (
            <TextField
              select
              label="Intercom reply delay"
              disabled={readOnly}
              value={field.value}
              onChange={(event) => { field.onChange(Number(event.target.value)); }}
              helperText="How long an agent's reply waits before it is texted: replies sent meanwhile go together as one message"
            >
              {intercomReplyDelays.map((minutes) => (
                <MenuItem key={minutes} value={minutes}>
                  {delayLabel(minutes)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {!readOnly && (
          <Button type="submit" variant="outlined" disabled={!formState.isDirty || save.isPending} sx={{ alignSelf: 'flex-start' }}>
            Save
          </Button>
        )}
      </Stack>
    </form>
  );
};
