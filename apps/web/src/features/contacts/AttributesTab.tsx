import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { attributeNameSchema } from '@parley/shared';
import { useState } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { DUPLICATE_ATTRIBUTE_MESSAGE, type ContactFormOutput, type ContactFormValues } from './contactForm';

interface AttributesTabProps {
  form: UseFormReturn<ContactFormValues, unknown, ContactFormOutput>;
  readOnly: boolean;
}

/** The account's attributes, one value field each, and a way to add a new attribute name with its value. */
export const AttributesTab = ({ form, readOnly }: AttributesTabProps) => {
  const { control, register, formState } = form;
  const { fields, append } = useFieldArray({ control, name: 'attributes' });
  const [newName, setNewName] = useState('');
  const [newValue, setNewValue] = useState('');
  const [newError, setNewError] = useState<string | null>(null);
  const errors = formState.errors.attributes;

  const add = (): void => {
    const checked = attributeNameSchema.safeParse(newName);
    if (!checked.success) {
      setNewError(checked.error.issues[0]?.message ?? 'Not a valid name');
      return;
    }
    if (form.getValues('attributes').some((a) => a.name === checked.data)) {
      setNewError(DUPLICATE_ATTRIBUTE_MESSAGE);
      return;
    }
    append({ name: checked.data, value: newValue });
    setNewName('');
    setNewValue('');
    setNewError(null);
  };

  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      {fields.length === 0 && <Typography color="text.secondary">This account has no custom attributes yet.</Typography>}
      {fields.map((field, index) => (
        <TextField
          key={field.id}
          label={field.name}
          disabled={readOnly}
          {...register(`attributes.${index}.value`)}
          error={errors?.[index] !== undefined}
          helperText={errors?.[index]?.name?.message ?? errors?.[index]?.value?.message}
        />
      ))}
      {!readOnly && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label="New Attribute Name"
            size="small"
            value={newName}
            onChange={(event) => {
              setNewName(event.target.value);
              setNewError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
            error={newError !== null}
            helperText={newError ?? 'Letters, digits and underscores'}
          />
          <TextField
            label="Value"
            size="small"
            value={newValue}
            onChange={(event) => {
              setNewValue(event.target.value);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
          <Button variant="outlined" onClick={add} disabled={newName.trim() === ''} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            Add Attribute
          </Button>
        </Stack>
      )}
    </Stack>
  );
};
