import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { flagGroups, flagLabels, noFlags, notificationFlags, type EventFlags } from './eventTypes';
import type { NotificationControl } from './notificationForm';

interface EventTypeFieldsProps {
  control: NotificationControl;
  disabled: boolean;
}

const allFlags = (): EventFlags => Object.fromEntries(notificationFlags.map((flag) => [flag, true])) as EventFlags;

/** The event flags, by what they are about, with all and none at once. */
export const EventTypeFields = ({ control, disabled }: EventTypeFieldsProps) => {
  const labelId = useId();
  return (
    <Controller
      control={control}
      name="events"
      render={({ field, fieldState }) => (
        <FormControl component="fieldset" error={fieldState.invalid} aria-labelledby={labelId}>
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <FormLabel component="legend" id={labelId} sx={{ flex: 1, float: 'left' }}>
              Events
            </FormLabel>
            <Button size="small" disabled={disabled} onClick={() => { field.onChange(allFlags()); }}>
              All
            </Button>
            <Button size="small" disabled={disabled} onClick={() => { field.onChange(noFlags()); }}>
              None
            </Button>
          </Stack>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, rowGap: 1 }}>
            {flagGroups.map((group) => (
              <Box key={group.label}>
                <Typography variant="subtitle2" color="text.secondary">
                  {group.label}
                </Typography>
                <FormGroup>
                  {group.flags.map((flag) => (
                    <FormControlLabel
                      key={flag}
                      label={flagLabels[flag]}
                      disabled={disabled}
                      control={
                        <Checkbox
                          size="small"
                          checked={field.value[flag]}
                          onChange={(event) => { field.onChange({ ...field.value, [flag]: event.target.checked }); }}
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </Box>
            ))}
          </Box>
          {fieldState.error?.message !== undefined && <FormHelperText>{fieldState.error.message}</FormHelperText>}
        </FormControl>
      )}
    />
  );
};
