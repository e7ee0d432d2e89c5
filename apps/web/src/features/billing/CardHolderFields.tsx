import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { PaymentDetailsForm } from './paymentDetails';

interface FieldSpec {
  name: keyof PaymentDetailsForm;
  label: string;
  autoComplete: string;
  wide?: boolean;
  required?: boolean;
  inputMode?: 'numeric';
}

const holderFields: FieldSpec[] = [
  { name: 'name', label: 'Card Holder Name', autoComplete: 'cc-name', wide: true },
  { name: 'line1', label: 'Address Line 1', autoComplete: 'address-line1', wide: true },
  { name: 'line2', label: 'Address Line 2', autoComplete: 'address-line2', wide: true, required: false },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'postalCode', label: 'Postal Code', autoComplete: 'postal-code' },
  { name: 'country', label: 'Country', autoComplete: 'country-name', wide: true },
];

const cardFields: FieldSpec[] = [
  { name: 'cardNumber', label: 'Card Number', autoComplete: 'cc-number', wide: true, inputMode: 'numeric' },
  { name: 'expiry', label: 'Expiry (MM/YY)', autoComplete: 'cc-exp' },
  { name: 'cvc', label: 'CVC', autoComplete: 'cc-csc', inputMode: 'numeric' },
];

interface FieldsProps {
  register: UseFormRegister<PaymentDetailsForm>;
  errors: FieldErrors<PaymentDetailsForm>;
  disabled: boolean;
}

const FieldGrid = ({ fields, register, errors, disabled }: FieldsProps & { fields: FieldSpec[] }) => (
  <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
    {fields.map((field) => (
      <TextField
        key={field.name}
        label={field.label}
        required={field.required ?? true}
        autoComplete={field.autoComplete}
        disabled={disabled}
        error={errors[field.name] !== undefined}
        slotProps={{ htmlInput: field.inputMode === undefined ? {} : { inputMode: field.inputMode } }}
        sx={field.wide === true ? { gridColumn: { sm: '1 / -1' } } : undefined}
        {...register(field.name)}
      />
    ))}
  </Box>
);

/** The card holder (name and address: line 2 optional) as the card's bank has them. */
export const CardHolderFields = (props: FieldsProps) => <FieldGrid fields={holderFields} {...props} />;

/** The card itself: number, expiry and security code. */
export const CardFields = (props: FieldsProps) => <FieldGrid fields={cardFields} {...props} />;
