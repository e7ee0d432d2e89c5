import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { SettingsForm } from './simulatorView';

type ErrorCode = SettingsForm['errorCodes'][number];

const stageLabels = { submit: 'Refused at submit', delivery: 'Undelivered later' } as const;

interface ErrorCodeRowProps {
  code: ErrorCode;
  codeError: string | undefined;
  textError: string | undefined;
  disabled: boolean;
  /** Shows the remove button (administrators). */
  canRemove: boolean;
  onChange: (change: Partial<ErrorCode>) => void;
  onRemove: () => void;
}

/** One error code of the simulated network: the code, its text and the stage it fails a message at. */
export const ErrorCodeRow = ({ code, codeError, textError, disabled, canRemove, onChange, onRemove }: ErrorCodeRowProps) => (
  <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
    <TextField
      label="Code"
      size="small"
      value={code.code}
      disabled={disabled}
      onChange={(event) => {
        onChange({ code: event.target.value });
      }}
      error={codeError !== undefined}
      helperText={codeError}
      sx={{ width: 110 }}
    />
    <TextField
      label="Text"
      size="small"
      value={code.text}
      disabled={disabled}
      onChange={(event) => {
        onChange({ text: event.target.value });
      }}
      error={textError !== undefined}
      helperText={textError}
      sx={{ flex: 1 }}
    />
    <TextField
      select
      label="Stage"
      size="small"
      value={code.stage}
      disabled={disabled}
      onChange={(event) => {
        onChange({ stage: event.target.value === 'submit' ? 'submit' : 'delivery' });
      }}
      sx={{ width: 210 }}
    >
      <MenuItem value="submit">{stageLabels.submit}</MenuItem>
      <MenuItem value="delivery">{stageLabels.delivery}</MenuItem>
    </TextField>
    {canRemove && (
      <IconButton aria-label={`Remove error code ${code.code}`} disabled={disabled} onClick={onRemove}>
        <DeleteOutlined />
      </IconButton>
    )}
  </Stack>
);
