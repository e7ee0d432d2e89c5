import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { IMPORT_FILE_MAX_LABEL, importFileMessages, importFormatLabels } from '@parley/shared';
import { useRef, useState, type DragEvent } from 'react';
import type { CsvPreview } from './readCsvFile';

const PREFIX = `${importFileMessages.unableToProcess}: `;

/** A parse failure reads 'Unable to process CSV file'; the detail says what to do about it. */
const detailOf = (message: string): string => {
  const detail = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
  return detail.charAt(0).toUpperCase() + detail.slice(1);
};

export interface UploadStepProps {
  fileName: string | null;
  preview: CsvPreview | null;
  error: string | null;
  reading: boolean;
  onFile: (file: File) => void;
}

/** Step 1: choose or drop a CSV file; its first rows are shown once it reads. */
export const UploadStep = ({ fileName, preview, error, reading, onFile }: UploadStepProps) => {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file !== undefined) onFile(file);
  };
  return (
    <Stack spacing={2}>
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => {
          setDragging(false);
        }}
        onDrop={drop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 1,
          p: 3,
          textAlign: 'center',
          bgcolor: dragging ? 'action.hover' : undefined,
        }}
      >
        <input
          ref={input}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          hidden
          data-testid="import-file-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file !== undefined) onFile(file);
            event.target.value = '';
          }}
        />
        <Button variant="outlined" startIcon={<UploadFileOutlined />} loading={reading} onClick={() => input.current?.click()}>
          Choose CSV File
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          or drop it here. The first row names the columns; up to {IMPORT_FILE_MAX_LABEL}. Exports of Google Contacts,
          Outlook, Apple Contacts, HubSpot and Mailchimp are recognised.
        </Typography>
        {fileName !== null && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {fileName}
          </Typography>
        )}
      </Box>
      {error !== null && (
        <Alert severity="error" variant="outlined">
          <AlertTitle>{importFileMessages.unableToProcess}</AlertTitle>
          {detailOf(error)}
        </Alert>
      )}
      {preview !== null && (
        <>
          <Typography variant="body2">
            {preview.rowCount.toLocaleString('en')} {preview.rowCount === 1 ? 'row' : 'rows'}
            {preview.format === null ? '' : ` · ${importFormatLabels[preview.format]} export`}
          </Typography>
          <TableContainer sx={{ maxHeight: 260, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" stickyHeader aria-label="File preview">
              <TableHead>
                <TableRow>
                  {preview.columns.map((c) => (
                    <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                      {c}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {preview.sample.map((row, r) => (
                  <TableRow key={r}>
                    {preview.columns.map((c, i) => (
                      <TableCell key={c} sx={{ whiteSpace: 'nowrap', maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                        {row[i] ?? ''}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Stack>
  );
};
