import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { changedProperties, HUBSPOT_DEFAULT_PROPERTIES, hubspotPropertiesSchema, type HubSpotMobileOrder, type HubSpotProperties } from '@parley/shared';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSaveProperties } from './queries';

const propertiesOf = (properties: Record<string, unknown>): HubSpotProperties => {
  const parsed = hubspotPropertiesSchema.safeParse({ ...HUBSPOT_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : HUBSPOT_DEFAULT_PROPERTIES;
};

const MOBILE_OPTIONS: { value: HubSpotMobileOrder; label: string }[] = [
  { value: 'phone', label: 'phone' },
  { value: 'mobilephone', label: 'mobilephone' },
  { value: 'phone,mobilephone', label: 'phone, then mobilephone' },
  { value: 'mobilephone,phone', label: 'mobilephone, then phone' },
];

const SWITCHES: { name: 'recordMessages' | 'pushContacts'; label: string }[] = [
  { name: 'recordMessages', label: 'Log messages sent and received as SMS on the HubSpot contact' },
  { name: 'pushContacts', label: 'Create contacts added in Parley in HubSpot too' },
];

/** The properties: saving needs a change, and only the changed fields are sent (the spec's rule). */
export const HubSpotPropertiesForm = ({ accountId, properties, readOnly }: { accountId: string; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const save = useSaveProperties(accountId, 'hubspot');
  const { register, control, handleSubmit, formState, reset } = useForm<HubSpotProperties>({ resolver: zodResolver(hubspotPropertiesSchema), defaultValues: initial });
  const submit: SubmitHandler<HubSpotProperties> = (values) => {
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
          name="mobileProperty"
          render={({ field }) => (
            <TextField select label="Mobile property" disabled={readOnly} {...field} error={!!e.mobileProperty} helperText={e.mobileProperty?.message ?? 'The HubSpot contact property that holds the mobile number'}>
              {MOBILE_OPTIONS.map((option) => (
                <MenuItem key={option.value} value={option.value}>
                  {option.label}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <TextField label="Tag for synchronized contacts" disabled={readOnly} {...register('importTag')} error={!!e.importTag} helperText={e.importTag?.message ?? 'Put on every contact a sync brings in; empty for none'} />
        {SWITCHES.map(({ name, label }) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => <FormControlLabel control={<Switch checked={field.value} disabled={readOnly} onChange={(_event, checked) => { field.onChange(checked); }} />} label={label} />}
          />
        ))}
        {!readOnly && (
          <Button type="submit" variant="outlined" disabled={!formState.isDirty || save.isPending} sx={{ alignSelf: 'flex-start' }}>
            Save
          </Button>
        )}
      </Stack>
    </form>
  );
};
