import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  attributeNameForColumn,
  contactCountryCodes,
  importFieldLabels,
  importFields,
  type ImportDefaults,
  type ImportMapping,
  type ListRecord,
} from '@parley/shared';
import { useMemo } from 'react';
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

const sampleOf = (preview: CsvPreview, index: number): string =>
  preview.sample.map((row) => (row[index] ?? '').trim()).find((v) => v !== '') ?? '';

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
      <TableContainer sx={{ maxHeight: 340, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-label="Field mapping">
          <TableHead>
            <TableRow>
              <TableCell>Column</TableCell>
              <TableCell>Example</TableCell>
              <TableCell sx={{ width: 260 }}>Import as</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.columns.map((column, index) => {
              const own = attributeNameForColumn(column);
              const chosen = mapping[column] ?? null;
              const attributes = [...new Set([...(own === null ? [] : [own]), ...attributeNames, ...(chosen !== null && !(importFields as readonly string[]).includes(chosen) ? [chosen] : [])])];
              return (
                <TableRow key={column}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{column}</TableCell>
                  <TableCell sx={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: 'text.secondary' }}>
                    {sampleOf(preview, index)}
                  </TableCell>
                  <TableCell>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={chosen ?? ''}
                      slotProps={{ select: { displayEmpty: true, SelectDisplayProps: { 'aria-label': `Import ${column} as` } } }}
                      onChange={(event) => {
                        props.onMapping(column, event.target.value === '' ? null : event.target.value);
                      }}
                    >
                      <MenuItem value="">
                        <em>Ignore</em>
                      </MenuItem>
                      <ListSubheader>Contact fields</ListSubheader>
                      {importFields.map((f) => (
                        <MenuItem key={f} value={f}>
                          {importFieldLabels[f]}
                        </MenuItem>
                      ))}
                      <ListSubheader>Custom attributes</ListSubheader>
                      {attributes.map((a) => (
                        <MenuItem key={a} value={a}>
                          {a}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
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
