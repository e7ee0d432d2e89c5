import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { LOOKUP_NUMBER_REQUIRED, type NumberLookupQuery } from '@parley/shared';
import { useState, type FormEvent } from 'react';
import { countryMenuItems } from '../../components/countryMenuItems';

export interface LookupFormProps {
  /** The account's default country, chosen first. */
  defaultCountry: string;
  numberLabel: string;
  busy: boolean;
  onLookup: (query: NumberLookupQuery) => void;
}

/** Country and number, and the button that asks: the form both lookups share. */
export const LookupForm = ({ defaultCountry, numberLabel, busy, onLookup }: LookupFormProps) => {
  const [countryChoice, setCountryChoice] = useState<string | null>(null);
  const country = countryChoice ?? defaultCountry;
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (number.trim() === '') {
      setNumberError(LOOKUP_NUMBER_REQUIRED);
      return;
    }
    setNumberError(null);
    onLookup({ number: number.trim(), country });
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' }, mb: 2 }}>
      <TextField
        select
        label="Country"
        value={country}
        onChange={(event) => {
          setCountryChoice(event.target.value);
        }}
        sx={{ minWidth: 200 }}
      >
        {countryMenuItems()}
      </TextField>
      <TextField
        label={numberLabel}
        value={number}
        onChange={(event) => {
          setNumber(event.target.value);
        }}
        error={numberError !== null}
        helperText={numberError ?? 'A number with a leading + may be of any country'}
        required
        inputMode="tel"
        sx={{ flexGrow: 1 }}
      />
      <Button type="submit" variant="contained" startIcon={<SearchOutlined />} disabled={busy} sx={{ mt: { sm: 1 } }}>
        Look Up
      </Button>
    </Stack>
  );
};
