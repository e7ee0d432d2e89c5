import Autocomplete from '@mui/material/Autocomplete';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Controller, useWatch } from 'react-hook-form';
import { notificationStatusChoices, type NotificationControl } from './notificationForm';
import type { FilterOption, FilterOptions } from './useFilterOptions';

interface FilterFieldsProps {
  control: NotificationControl;
  options: FilterOptions;
  disabled: boolean;
}

interface IdsFieldProps {
  control: NotificationControl;
  name: 'groups' | 'phoneNumbers';
  label: string;
  options: FilterOption[];
  loading: boolean;
  disabled: boolean;
  help: string;
}

/** A multiple choice of the account's records by id; an id no longer offered still shows, so it can be taken off. */
const IdsField = ({ control, name, label, options, loading, disabled, help }: IdsFieldProps) => (
  <Controller
    control={control}
    name={name}
    render={({ field, fieldState }) => (
      <Autocomplete
        multiple
        options={options.map((o) => o.id)}
        value={field.value}
        onChange={(_event, value) => { field.onChange(value); }}
        getOptionLabel={(id) => options.find((o) => o.id === id)?.label ?? (loading ? '…' : 'Removed')}
        loading={loading}
        disabled={disabled}
        filterSelectedOptions
        renderInput={(params) => (
          <TextField {...params} label={label} placeholder={field.value.length === 0 ? 'Any' : undefined} error={fieldState.invalid} helperText={fieldState.error?.message ?? help} />
        )}
      />
    )}
  />
);

/** What narrows the events: groups, the account's numbers, message statuses (with message-status) and direction. */
export const FilterFields = ({ control, options, disabled }: FilterFieldsProps) => {
  const messageStatus = useWatch({ control, name: 'events.messageStatus' });
  return (
    <Stack spacing={2}>
      <FormLabel component="div">Only events that match (left empty, nothing is narrowed)</FormLabel>
      <IdsField control={control} name="groups" label="Groups" options={options.groups} loading={options.pending} disabled={disabled} help="The conversation's group" />
      <IdsField
        control={control}
        name="phoneNumbers"
        label="Phone numbers"
        options={options.phoneNumbers}
        loading={options.pending}
        disabled={disabled}
        help="The account's number the message went through"
      />
      {messageStatus && (
        <Controller
          control={control}
          name="statuses"
          render={({ field, fieldState }) => (
            <Autocomplete
              multiple
              options={[...new Set([...notificationStatusChoices, ...field.value])]}
              value={field.value}
              onChange={(_event, value) => { field.onChange(value); }}
              disabled={disabled}
              filterSelectedOptions
              renderInput={(params) => (
                <TextField {...params} label="Statuses" error={fieldState.invalid} helperText={fieldState.error?.message ?? 'For message status events: only these'} />
              )}
            />
          )}
        />
      )}
      <Controller
        control={control}
        name="direction"
        render={({ field, fieldState }) => (
          <TextField select label="Direction" {...field} disabled={disabled} error={fieldState.invalid} helperText={fieldState.error?.message}>
            <MenuItem value="any">Any</MenuItem>
            <MenuItem value="incoming">Incoming</MenuItem>
            <MenuItem value="outgoing">Outgoing</MenuItem>
          </TextField>
        )}
      />
    </Stack>
  );
};
