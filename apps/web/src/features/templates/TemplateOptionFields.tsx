import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { templateTypes, type SaveTemplate, type SaveTemplateInput, type TemplateType } from '@parley/shared';
import { useId } from 'react';
import { Controller, useWatch, type Control, type UseFormSetValue } from 'react-hook-form';

const typeHelp: Record<TemplateType, string> = {
  SMS: 'Chosen in the send box and in campaigns.',
  Web: "Sent when an integration calls the template's web-hook link.",
  OptIn: 'A public sign-up page: whoever signs up joins the list and gets this message.',
};

interface TemplateOptionFieldsProps {
  control: Control<SaveTemplateInput, unknown, SaveTemplate>;
  setValue: UseFormSetValue<SaveTemplateInput>;
  disabled: boolean;
  /** The lists an OptIn template may fill. */
  lists: readonly { id: string; name: string }[];
  listsPending: boolean;
  /** The lists have loaded and there are none. */
  noLists: boolean;
}

/** The template form's type, the list of an OptIn template, and Private. */
export const TemplateOptionFields = ({ control, setValue, disabled, lists, listsPending, noLists }: TemplateOptionFieldsProps) => {
  const typeLabelId = useId();
  const chosenType = useWatch({ control, name: 'type' });
  return (
    <>
      <Controller
        control={control}
        name="type"
        render={({ field, fieldState }) => (
          <FormControl error={fieldState.invalid}>
            <FormLabel id={typeLabelId}>Type</FormLabel>
            <RadioGroup
              row
              aria-labelledby={typeLabelId}
              value={field.value}
              onChange={(event) => {
                const next = event.target.value as TemplateType;
                field.onChange(next);
                // Only an OptIn template has a list.
                if (next !== 'OptIn') setValue('optInListId', null);
              }}
            >
              {templateTypes.map((t) => (
                <FormControlLabel key={t} value={t} control={<Radio />} label={t} disabled={disabled} />
              ))}
            </RadioGroup>
            <FormHelperText>{fieldState.error?.message ?? typeHelp[field.value]}</FormHelperText>
          </FormControl>
        )}
      />
      {chosenType === 'OptIn' && (
        <Controller
          control={control}
          name="optInListId"
          render={({ field, fieldState }) => (
            <TextField
              select
              label="List"
              required
              fullWidth
              disabled={disabled || listsPending}
              value={field.value ?? ''}
              onChange={(event) => {
                field.onChange(event.target.value === '' ? null : event.target.value);
              }}
              error={fieldState.invalid}
              helperText={
                fieldState.error?.message ??
                (noLists
                  ? 'The account has no lists yet: create one from the contacts page first.'
                  : 'People who sign up join this list.')
              }
            >
              {lists.map((list) => (
                <MenuItem key={list.id} value={list.id}>
                  {list.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      <Controller
        control={control}
        name="private"
        render={({ field }) => (
          <FormControl>
            <FormControlLabel
              control={
                <Switch
                  checked={field.value ?? false}
                  onChange={(event) => {
                    field.onChange(event.target.checked);
                  }}
                  disabled={disabled}
                />
              }
              label="Private"
            />
            <FormHelperText sx={{ mt: 0 }}>A private template is seen only by the user who made it and by administrators.</FormHelperText>
          </FormControl>
        )}
      />
    </>
  );
};
