import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { importFieldLabels, importFields, isImportField } from '@parley/shared';
import { useMemo } from 'react';
import { useAttributeNames } from '../contacts';
import type { StepProps } from './stepProps';
import { errorAt } from './wizardState';

const targetLabel = (target: string): string => (isImportField(target) ? importFieldLabels[target] : target);

/**
 * Field Mapping: which contact field or attribute each column of the file feeds (the mobile is required).
 * A column left empty is ignored.
 */
export const FieldMappingStep = ({ accountId, draft, onChange, errors, disabled }: StepProps) => {
  const attributes = useAttributeNames(accountId);
  const options = useMemo(() => [...importFields, ...(attributes.data ?? [])], [attributes.data]);
  const columns = useMemo(() => {
    const mapped = draft.fieldMappings.map((m) => m.column);
    return [...draft.sampleColumns, ...mapped.filter((c) => !draft.sampleColumns.includes(c))];
  }, [draft.fieldMappings, draft.sampleColumns]);
  const setTarget = (column: string, field: string): void => {
    const rest = draft.fieldMappings.filter((m) => m.column !== column);
    onChange({ fieldMappings: field.trim() === '' ? rest : [...rest, { column, field: field.trim() }] });
  };
  const listError = errors.fieldMappings;
  return (
    <Stack spacing={2}>
      {columns.length === 0 ? (
        <Typography color="text.secondary">Choose a file on File Upload to map its columns.</Typography>
      ) : (
        columns.map((column) => {
          const index = draft.fieldMappings.findIndex((m) => m.column === column);
          const value = index < 0 ? '' : (draft.fieldMappings[index]?.field ?? '');
          const error = index < 0 ? undefined : errorAt(errors, `fieldMappings.${String(index)}`);
          return (
            <Stack key={column} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography sx={{ width: 200, overflow: 'hidden', textOverflow: 'ellipsis' }} title={column}>
                {column}
              </Typography>
              <Autocomplete<string, false, false, true>
                freeSolo
                options={options}
                getOptionLabel={targetLabel}
                value={value === '' ? null : value}
                onChange={(_e, next) => { setTarget(column, next ?? ''); }}
                onBlur={(e) => {
                  const typed = (e.target as HTMLInputElement).value;
                  if (typed !== targetLabel(value)) setTarget(column, typed);
                }}
                disabled={disabled}
                sx={{ flex: 1 }}
                renderInput={(params) => (
                  <TextField {...params} label={`Field for ${column}`} placeholder="Ignored" error={error !== undefined} helperText={error} />
                )}
              />
            </Stack>
          );
        })
      )}
      {listError !== undefined && (
        <Typography color="error" variant="body2" role="alert">
          {listError}
        </Typography>
      )}
    </Stack>
  );
};
