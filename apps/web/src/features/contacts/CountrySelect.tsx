import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { contactCountryCodes } from '@parley/shared';
import { useMemo } from 'react';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

const nameOf = (code: string): string => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/**
 * The country of a contact's number. Contacts may live anywhere, so this lists every country the phone
 * metadata knows (the account's country select lists only the supported ones).
 */
export const CountrySelect = ({
  value,
  onChange,
  disabled = false,
  sx,
}: {
  value: string;
  onChange: (code: string) => void;
  disabled?: boolean;
  sx?: SxProps<Theme>;
}) => {
  const options = useMemo(
    () => contactCountryCodes().map((code) => ({ code, name: nameOf(code) })).sort((a, b) => a.name.localeCompare(b.name)),
    [],
  );
  return (
    <TextField
      select
      label="Country"
      value={value}
      disabled={disabled}
      onChange={(event) => {
        onChange(event.target.value);
      }}
      sx={sx}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
    >
      {options.map((c) => (
        <MenuItem key={c.code} value={c.code}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
};
