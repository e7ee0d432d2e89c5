import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';

/** 'Choose File' for a CSV: hands the chosen file over and clears the input, so the same file can be chosen again. */
export const ChooseCsvButton = ({ disabled, onFile }: { disabled: boolean; onFile: (file: File) => void }) => (
  <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />} disabled={disabled}>
    Choose File
    <input
      hidden
      type="file"
      accept=".csv,text/csv,text/plain"
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file !== undefined) onFile(file);
      }}
    />
  </Button>
);
