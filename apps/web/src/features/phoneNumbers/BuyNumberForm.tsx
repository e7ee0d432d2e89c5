import DialogContent from '@mui/material/DialogContent';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PHONE_NUMBER_NAME_MAX, supportedCountryCodes, validationMessages, type PhoneNumber } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { countryMenuItems } from '../../components/countryMenuItems';
import { ErrorAlert } from '../../components/ErrorAlert';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { useAvailableNumbers } from './queries';

interface BuyNumberFormProps {
  accountId: string;
  defaultCountry: string;
  onCancel: () => void;
  onAdded: (numbers: PhoneNumber[]) => Promise<void>;
}

/** Buy: a country, then one of the numbers the carrier has for sale there. */
export const BuyNumberForm = ({ accountId, defaultCountry, onCancel, onAdded }: BuyNumberFormProps) => {
  const api = useApiClient();
  const [country, setCountry] = useState(supportedCountryCodes.includes(defaultCountry) ? defaultCountry : 'US');
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const available = useAvailableNumbers(accountId, country, true);
  const display = usePhoneDisplay();
  const buy = useMutation({
    mutationFn: async () =>
      (await api.post<{ data: PhoneNumber }>(`/v1/accounts/${accountId}/phonenumbers`, { number: chosen, name: name.trim() })).data,
    onSuccess: (number) => onAdded([number]),
  });
  const nameTooLong = name.trim().length > PHONE_NUMBER_NAME_MAX;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (chosen !== '' && !nameTooLong) buy.mutate();
      }}
    >
      <DialogContent>
        <Stack spacing={2}>
          <TextField
            select
            label="Country"
            value={country}
            onChange={(event) => {
              setCountry(event.target.value);
              setChosen('');
            }}
          >
            {countryMenuItems()}
          </TextField>
          {available.isPending && <LinearProgress aria-label="Loading available numbers" />}
          {available.isError && <ErrorAlert message={errorMessage(available.error)} onRetry={() => void available.refetch()} />}
          {available.isSuccess && available.data.length === 0 && <Typography>No numbers are available in this country.</Typography>}
          {available.isSuccess && available.data.length > 0 && (
            <FormControl required error={tried && chosen === ''}>
              <FormLabel id="available-numbers-label">Available Numbers</FormLabel>
              <RadioGroup
                aria-labelledby="available-numbers-label"
                value={chosen}
                onChange={(event) => {
                  setChosen(event.target.value);
                }}
                sx={{ maxHeight: 240, overflowY: 'auto', flexWrap: 'nowrap' }}
              >
                {available.data.map((n) => (
                  <FormControlLabel key={n.number} value={n.number} control={<Radio size="small" />} label={display.phone(n.number)} />
                ))}
              </RadioGroup>
              {tried && chosen === '' && <FormHelperText>{validationMessages.required}</FormHelperText>}
            </FormControl>
          )}
          <TextField
            label="Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
            }}
            error={nameTooLong}
            helperText={nameTooLong ? `At most ${PHONE_NUMBER_NAME_MAX} characters` : 'Optional: how the number is shown'}
          />
        </Stack>
        {buy.isError && <ErrorAlert message={errorMessage(buy.error)} />}
      </DialogContent>
      <DialogFooter label="Buy" onCancel={onCancel} pending={buy.isPending} disabled={!available.isSuccess || available.data.length === 0} />
    </form>
  );
};
