import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { countryMenuItems } from './countryMenuItems';

export interface CountryNumber {
  number: string;
  country: string;
}

export interface CountryNumberFormProps {
  /** The account's default country, chosen first. */
  defaultCountry: string;
  numberLabel: string;
  buttonLabel: string;
  /** What an empty number says. */
  missingMessage: string;
  busy?: boolean;
  onSubmit: (value: CountryNumber) => void;
}

/** A country and a phone number, and the button that searches with them (privacy search, number lookups). */
export const CountryNumberForm = ({ defaultCountry, numberLabel, buttonLabel, missingMessage, busy = false, onSubmit }: CountryNumberFormProps) => {
  const [countryChoice, setCountryChoice] = useState<string | null>(null);
  const country = countryChoice ?? defaultCountry;
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (number.trim() === '') {
      setNumberError(missingMessage);
      return;
    }
    setNumberError(null);
    onSubmit({ number: number.trim(), country });
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
        {buttonLabel}
      </Button>
    </Stack>
  );
};
