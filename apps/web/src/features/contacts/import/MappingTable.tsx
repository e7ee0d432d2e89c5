import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { attributeNameForColumn, importFieldLabels, importFields, type ImportMapping } from '@parley/shared';
import type { CsvPreview } from './readCsvFile';

interface MappingTableProps {
  preview: CsvPreview;
  mapping: ImportMapping;
  attributeNames: readonly string[];
  onMapping: (column: string, target: string | null) => void;
}

const sampleOf = (preview: CsvPreview, index: number): string =>
  preview.sample.map((row) => (row[index] ?? '').trim()).find((v) => v !== '') ?? '';

/** The file's columns, an example of each, and what each is imported as: ignored, a contact field or an attribute. */
export const MappingTable = ({ preview, mapping, attributeNames, onMapping }: MappingTableProps) => (
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
                    onMapping(column, event.target.value === '' ? null : event.target.value);
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
);
