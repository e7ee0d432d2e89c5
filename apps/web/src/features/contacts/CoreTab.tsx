import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { normaliseContactMobile, type Contact } from '@parley/shared';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { ContactFormOutput, ContactFormValues } from './contactForm';
import { CountrySelect } from './CountrySelect';
import { TagsField } from './TagsField';

interface CoreTabProps {
  form: UseFormReturn<ContactFormValues, unknown, ContactFormOutput>;
  readOnly: boolean;
  accountId: string;
  /** The contact shown; null while adding one. */
  contact: Contact | null;
  defaultCountry: string;
}

/**
 * The Contact dialog's Core tab: names, country and mobile (a number that does not parse is saved as invalid,
 * and says so), email, tags, and the contact's tags that are not visible shown apart.
 */
export const CoreTab = ({ form, readOnly, accountId, contact, defaultCountry }: CoreTabProps) => {
  const { register, control, formState } = form;
  const [number, country] = useWatch({ control, name: ['number', 'country'] });
  const check = number.trim() === '' ? null : normaliseContactMobile(number, country, defaultCountry);
  const e = formState.errors;
  return (
  <Stack spacing={2} sx={{ pt: 1 }}>
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField label="First Name" fullWidth disabled={readOnly} {...register('firstName')} error={!!e.firstName} helperText={e.firstName?.message} />
      <TextField label="Last Name" fullWidth disabled={readOnly} {...register('lastName')} error={!!e.lastName} helperText={e.lastName?.message} />
    </Stack>
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <Controller
        control={control}
        name="country"
        render={({ field }) => (
          <CountrySelect value={field.value} onChange={field.onChange} disabled={readOnly} sx={{ minWidth: { sm: 200 } }} />
        )}
      />
      <TextField
        label="Mobile"
        required
        fullWidth
        type="tel"
        disabled={readOnly}
        {...register('number')}
        error={!!e.number}
        helperText={
          e.number?.message ??
          (check !== null && !check.valid ? `${check.errorDescription}: the contact will be saved as invalid` : undefined)
        }
      />
    </Stack>
    <TextField label="Email" type="email" disabled={readOnly} {...register('email')} error={!!e.email} helperText={e.email?.message} />
    <Controller
      control={control}
      name="tags"
      render={({ field }) => (
        <TagsField
          accountId={accountId}
          value={field.value}
          onChange={field.onChange}
          disabled={readOnly}
          error={e.tags?.message ?? e.tags?.find?.((t) => t !== undefined)?.message}
        />
      )}
    />
    {contact !== null && contact.tags.some((t) => !t.visible) && (
      <Box>
        {contact.tags
          .filter((t) => !t.visible)
          .map((t) => (
            <Chip key={t.tag} size="small" variant="outlined" label={t.tag} sx={{ mr: 0.5 }} />
          ))}
      </Box>
    )}
  </Stack>
  );
};
