import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { PhoneNumber } from '@parley/shared';
import { phoneNumberLabel } from '../groups';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';

interface SenderNumberSelectProps {
  /** The account's active numbers. */
  numbers: readonly PhoneNumber[];
  /** '' for the automatic choice. */
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}

/**
 * 'Choose Outbound Phone Number', shown when the account has several active numbers. Left on
 * automatic, each contact hears from the number it last talked to, else the account's first number.
 */
export const SenderNumberSelect = ({ numbers, value, onChange, disabled }: SenderNumberSelectProps) => {
  const display = usePhoneDisplay();
  return (
    <TextField
      select
      label="Choose Outbound Phone Number"
      value={value}
      disabled={disabled}
      onChange={(event) => {
        onChange(event.target.value);
      }}
      helperText={value === '' ? 'Each contact gets the number it last talked to' : undefined}
    >
      <MenuItem value="">Automatic</MenuItem>
      {numbers.map((number) => (
        <MenuItem key={number.id} value={number.id}>
          {phoneNumberLabel(number, display.phone)}
        </MenuItem>
      ))}
    </TextField>
  );
};
