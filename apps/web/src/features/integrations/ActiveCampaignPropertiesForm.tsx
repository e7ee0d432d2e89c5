import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACTIVECAMPAIGN_DEFAULT_PROPERTIES, activeCampaignPropertiesSchema, changedProperties, type ActiveCampaignProperties } from '@parley/shared';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSaveProperties } from './queries';

const propertiesOf = (properties: Record<string, unknown>): ActiveCampaignProperties => {
  const parsed = activeCampaignPropertiesSchema.safeParse({ ...ACTIVECAMPAIGN_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : ACTIVECAMPAIGN_DEFAULT_PROPERTIES;
};

/** The properties: saving needs a change, and only the changed fields are sent (the spec's rule). */
export const ActiveCampaignPropertiesForm = ({ accountId, properties, readOnly }: { accountId: string; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const save = useSaveProperties(accountId, 'activecampaign');
  const { register, control, handleSubmit, formState, reset } = useForm<ActiveCampaignProperties>({
    resolver: zodResolver(activeCampaignPropertiesSchema),
    defaultValues: initial,
  });
  const submit: SubmitHandler<ActiveCampaignProperties> = (values) => {
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
        <TextField
          label="Tag for synchronized contacts"
          disabled={readOnly}
          {...register('importTag')}
          error={!!e.importTag}
          helperText={e.importTag?.message ?? 'Put on every contact a sync brings in; empty for none'}
        />
        <Controller
          control={control}
          name="recordMessages"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} disabled={readOnly} onChange={(_event, checked) => { field.onChange(checked); }} />}
              label="Record messages sent and received as notes on the ActiveCampaign contact"
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
