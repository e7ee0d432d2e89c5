import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { mediaChipName, SCREENSHOT_TEXT_MAX } from '@parley/shared';
import { useState } from 'react';
import { UploadFileDialog } from '../../../components/media/UploadFileDialog';
import { fileIdOf, type DraftMessage } from './screenshotDraft';

export interface SampleMessageFieldsProps {
  index: number;
  message: DraftMessage;
  problem: string | undefined;
  /** The account pictures go to; null when the user may not upload (Read Only). */
  uploadAccountId: string | null;
  canRemove: boolean;
  onChange: (message: DraftMessage) => void;
  onRemove: () => void;
}

/** One sample message: its side (outgoing or incoming), its text and an optional picture. */
export const SampleMessageFields = ({ index, message, problem, uploadAccountId, canRemove, onChange, onRemove }: SampleMessageFieldsProps) => {
  const [uploading, setUploading] = useState(false);
  const label = `Message ${String(index + 1)}`;
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="sample-message">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
          {label}
        </Typography>
        <FormControlLabel
          label="Outgoing"
          control={
            <Switch
              checked={message.outgoing}
              onChange={(event) => {
                onChange({ ...message, outgoing: event.target.checked });
              }}
              slotProps={{ input: { 'aria-label': `${label} outgoing` } }}
            />
          }
        />
        <Tooltip title={canRemove ? 'Remove' : ''}>
          <span>
            <IconButton aria-label={`Remove ${label.toLowerCase()}`} disabled={!canRemove} onClick={onRemove}>
              <DeleteOutlined />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
      <TextField
        label="Text"
        fullWidth
        multiline
        minRows={1}
        maxRows={6}
        value={message.text}
        error={problem !== undefined}
        helperText={problem ?? (message.outgoing ? 'Sent by you (right, blue)' : 'Received (left, grey)')}
        slotProps={{ htmlInput: { maxLength: SCREENSHOT_TEXT_MAX, 'aria-label': `${label} text` } }}
        onChange={(event) => {
          onChange({ ...message, text: event.target.value });
        }}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
        {message.picture !== null ? (
          <Chip
            label={mediaChipName(message.picture.name)}
            onDelete={() => {
              onChange({ ...message, picture: null });
            }}
          />
        ) : (
          uploadAccountId !== null && (
            <Button
              size="small"
              startIcon={<AddPhotoAlternateOutlined />}
              onClick={() => {
                setUploading(true);
              }}
            >
              Add picture
            </Button>
          )
        )}
      </Stack>
      {uploading && uploadAccountId !== null && (
        <UploadFileDialog
          accountId={uploadAccountId}
          onClose={() => {
            setUploading(false);
          }}
          onUploaded={(media) => {
            const id = fileIdOf(media.url);
            if (id !== null) onChange({ ...message, picture: { id, name: media.filename } });
          }}
        />
      )}
    </Paper>
  );
};
