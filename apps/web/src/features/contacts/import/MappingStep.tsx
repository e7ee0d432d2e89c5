import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  contactCountryCodes,
  type ImportDefaults,
  type ImportMapping,
  type ListRecord,
} from '@parley/shared';
import { useMemo } from 'react';
import { MappingTable } from './MappingTable';
import type { CsvPreview } from './readCsvFile';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string): string => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

export interface MappingStepProps {
  preview: CsvPreview;
  mapping: ImportMapping;
  defaults: ImportDefaults;
  remove: boolean;
  attributeNames: readonly string[];
  lists: readonly ListRecord[];
  problem: string | null;
  onMapping: (column: string, target: string | null) => void;
  onDefault: (target: string, value: string) => void;
  onRemove: (remove: boolean) => void;
}

/** Step 2: where each column goes, defaults for empty cells, and how existing contacts are merged. */
export const MappingStep = (props: MappingStepProps) => {
  const { preview, mapping, defaults, remove, attributeNames, lists, problem } = props;
  const countries = useMemo(
    () => contactCountryCodes().map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name)),
    [],
  );
  return (
    <Stack spacing={2}>
      {problem !== null && (
        <Alert severity="error" variant="outlined">
          {problem}
        </Alert>
      )}
      <MappingTable preview={preview} mapping={mapping} attributeNames={attributeNames} onMapping={props.onMapping} />
      <Typography variant="subtitle2">For rows that leave them empty</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label="Default Country"
          value={defaults.country ?? ''}
          onChange={(event) => {
            props.onDefault('country', event.target.value);
          }}
          sx={{ minWidth: 220 }}
          slotProps={{
            inputLabel: { shrink: true },
            select: { displayEmpty: true, MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } },
          }}
        >
          <MenuItem value="">
            <em>No default</em>
          </MenuItem>
          {countries.map((c) => (
            <MenuItem key={c.code} value={c.code}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Tags"
          placeholder="for example Imported; Spring fair"
          value={defaults.tags ?? ''}
          onChange={(event) => {
            props.onDefault('tags', event.target.value);
          }}
          sx={{ minWidth: 220 }}
        />
        <TextField
          select
          size="small"
          label="List"
          value={defaults.listId ?? ''}
          onChange={(event) => {
            props.onDefault('listId', event.target.value);
          }}
          sx={{ minWidth: 200 }}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value="">
            <em>None</em>
          </MenuItem>
          {lists.map((l) => (
            <MenuItem key={l.id} value={l.id}>
              {l.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Checkbox
              checked={defaults.listOptIn === 'true'}
              onChange={(event) => {
                props.onDefault('listOptIn', event.target.checked ? 'true' : '');
              }}
            />
          }
          label="Opted in"
        />
      </Stack>
      <FormControlLabel
        control={
          <Switch
            checked={remove}
            onChange={(event) => {
              props.onRemove(event.target.checked);
            }}
          />
        }
        label="Replace the tags and attributes of existing contacts (remove what the file does not have)"
      />
    </Stack>
  );
};
