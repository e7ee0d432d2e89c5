import { zodResolver } from '@hookform/resolvers/zod';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import DialogContent from '@mui/material/DialogContent';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  HOSTED_NUMBERS_MAX,
  hostedPhoneNumbersSchema,
  supportedCountryCodes,
  type HostedPhoneNumbers,
  type HostedPhoneNumbersInput,
  type PhoneNumber,
} from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useFieldArray, useForm, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { countryMenuItems } from '../../components/countryMenuItems';
import { ErrorAlert } from '../../components/ErrorAlert';
import { emptyLetter } from './hostedForm';

interface HostedNumberFormProps {
  accountId: string;
  defaultCountry: string;
  onCancel: () => void;
  onAdded: (numbers: PhoneNumber[]) => Promise<void>;
}

type LetterField = Exclude<keyof HostedPhoneNumbersInput, 'numbers'>;

const letterFields: { name: LetterField; label: string; type?: string }[] = [
  { name: 'businessName', label: 'Business Name' },
  { name: 'phoneNumberProvider', label: 'Current Phone Number Provider' },
  { name: 'authorizingPerson', label: 'Authorizing Person' },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'address', label: 'Address' },
  { name: 'city', label: 'City' },
  { name: 'state', label: 'State' },
  { name: 'postalCode', label: 'Postal Code' },
];

/** Hosted: the letter of authorisation for the business's own numbers (every field required). */
export const HostedNumberForm = ({ accountId, defaultCountry, onCancel, onAdded }: HostedNumberFormProps) => {
  const api = useApiClient();
  const country = supportedCountryCodes.includes(defaultCountry) ? defaultCountry : 'US';
  const { register, control, handleSubmit, formState } = useForm<HostedPhoneNumbersInput, unknown, HostedPhoneNumbers>({
    resolver: zodResolver(hostedPhoneNumbersSchema),
    defaultValues: emptyLetter(country),
  });
  const numbers = useFieldArray({ control, name: 'numbers' });
  const add = useMutation({
    mutationFn: async (letter: HostedPhoneNumbers) =>
      (await api.post<{ data: PhoneNumber[] }>(`/v1/accounts/${accountId}/phonenumbers/hosted`, letter)).data,
    onSuccess: (added) => onAdded(added),
  });
  const submit: SubmitHandler<HostedPhoneNumbers> = (letter) => {
    add.mutate(letter);
  };
  const e = formState.errors;
  const field = (name: LetterField, label: string, type?: string) => (
    <TextField key={name} label={label} type={type} required {...register(name)} error={!!e[name]} helperText={e[name]?.message} />
  );

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            A letter of authorisation lets us host numbers your business already has. Each number is verified by a call
            that reads out a 6-digit code.
          </Typography>
          {letterFields.slice(0, 2).map((f) => field(f.name, f.label, f.type))}
          <Typography variant="subtitle2" component="h3">
            Numbers
          </Typography>
          {numbers.fields.map((item, index) => (
            <Stack key={item.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                select
                label="Country"
                defaultValue={item.country}
                {...register(`numbers.${index}.country`)}
                sx={{ minWidth: 160 }}
              >
                {countryMenuItems()}
              </TextField>
              <TextField
                label="Number"
                required
                fullWidth
                inputMode="tel"
                {...register(`numbers.${index}.number`)}
                error={!!e.numbers?.[index]?.number}
                helperText={e.numbers?.[index]?.number?.message}
              />
              <IconButton
                aria-label={`Remove number ${String(index + 1)}`}
                disabled={numbers.fields.length === 1}
                onClick={() => {
                  numbers.remove(index);
                }}
                sx={{ mt: 1 }}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          {(e.numbers?.message ?? e.numbers?.root?.message) !== undefined && (
            <FormHelperText error>{e.numbers?.message ?? e.numbers?.root?.message}</FormHelperText>
          )}
          <div>
            <Button
              startIcon={<AddOutlined />}
              disabled={numbers.fields.length >= HOSTED_NUMBERS_MAX}
              onClick={() => {
                numbers.append({ country, number: '' });
              }}
            >
              Add Number
            </Button>
          </div>
          {letterFields.slice(2).map((f) => field(f.name, f.label, f.type))}
        </Stack>
        {add.isError && <ErrorAlert message={errorMessage(add.error)} />}
      </DialogContent>
      <DialogFooter label="Submit" onCancel={onCancel} pending={add.isPending} />
    </form>
  );
};
