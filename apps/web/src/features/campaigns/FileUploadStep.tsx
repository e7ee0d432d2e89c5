import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { autoMapColumns } from '@parley/shared';
import { useState } from 'react';
import { readCsvFile } from '../contacts';
import type { StepProps } from './stepProps';
import { ChooseCsvButton } from './ChooseCsvButton';

/**
 * File Upload: a sample of the files this campaign will be executed with, so Field Mapping can offer its
 * columns. The sample is not sent; each execution uploads its own file (Upload File Now).
 */
export const FileUploadStep = ({ draft, onChange, disabled }: StepProps) => {
  const [problem, setProblem] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const choose = async (file: File): Promise<void> => {
    const reading = await readCsvFile(file);
    if (!reading.ok) {
      setProblem(reading.message);
      return;
    }
    setProblem(null);
    setFileName(file.name);
    const columns = reading.preview.columns;
    // Columns already mapped keep their field; new ones get the field their header suggests.
    const kept = draft.fieldMappings.filter((m) => columns.includes(m.column));
    const suggested = autoMapColumns(columns);
    const added = columns
      .filter((c) => !kept.some((m) => m.column === c))
      .flatMap((column) => {
        const field = suggested[column];
        return field === null || field === undefined || field === '' ? [] : [{ column, field }];
      });
    onChange({ sampleColumns: columns, fieldMappings: [...kept, ...added] });
  };
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        Choose a CSV file laid out like the files this campaign will be executed with. Its header row gives the columns to map;
        nothing is sent now.
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <ChooseCsvButton disabled={disabled} onFile={(chosen) => void choose(chosen)} />
        <Typography>{fileName ?? (draft.sampleColumns.length > 0 ? 'Columns read' : 'No file chosen')}</Typography>
      </Stack>
      {draft.sampleColumns.length > 0 && <Typography>Columns: {draft.sampleColumns.join(', ')}</Typography>}
      {draft.sampleColumns.length === 0 && draft.fieldMappings.length > 0 && (
        <Typography color="text.secondary">The saved mappings are kept until another file is chosen.</Typography>
      )}
      {problem !== null && <Alert severity="error">{problem}</Alert>}
    </Stack>
  );
};
