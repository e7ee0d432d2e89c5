import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { changedProperties, PIPEDRIVE_DEFAULT_PROPERTIES, pipedrivePropertiesSchema, type PipedriveProperties, type PipedriveTimelineType } from '@parley/shared';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSaveProperties } from './queries';

const TIMELINE_LABELS: Record<PipedriveTimelineType, string> = {
  disabled: 'Disabled',
  activity: 'Activity (a done call)',
  note: 'Note',
};

const propertiesOf = (properties: Record<string, unknown>): PipedriveProperties => {
  const parsed = pipedrivePropertiesSchema.safeParse({ ...PIPEDRIVE_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : PIPEDRIVE_DEFAULT_PROPERTIES;
};

/** Pipedrive's properties: saving needs a change, and only the changed fields are sent. */
export const PipedrivePropertiesForm = ({ accountId, properties, readOnly }: { accountId: string; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const save = useSaveProperties(accountId, 'pipedrive');
  const { register, control, handleSubmit, formState, reset } = useForm<PipedriveProperties>({ resolver: zodResolver(pipedrivePropertiesSchema), defaultValues: initial });
  const submit: SubmitHandler<PipedriveProperties> = (values) => {
    save.mutate(changedProperties(initial, values), {
      onSuccess: () => {
        reset(values);
      },
    });
  };
  const e = formState.errors;
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)} aria-label="Properties">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <Typography variant="h2">Properties</Typography>
        {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        <Controller
          control={control}
          name="timelineType"
          render={({ field }) => (
            <TextField select label="Timeline type" disabled={readOnly} value={field.value} onChange={(event) => { field.onChange(event.target.value); }} helperText="How each message sent and received is written on the Pipedrive person">
              {Object.entries(TIMELINE_LABELS).map(([value, label]) => (
                <MenuItem key={value} value={value}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <TextField label="Tag for synchronized contacts" disabled={readOnly} {...register('importTag')} error={!!e.importTag} helperText={e.importTag?.message ?? 'Put on every contact a sync brings in; empty for none'} />
        <Controller
          control={control}
          name="pushContacts"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} disabled={readOnly} onChange={(_event, checked) => { field.onChange(checked); }} />}
              label="Create a Pipedrive person for each contact created in Parley"
            />
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
