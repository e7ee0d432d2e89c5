import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { SCREENSHOT_MESSAGES_MAX, type ScreenshotScale } from '@parley/shared';
import { useId, useState } from 'react';
import { ScreenshotPreview } from '../../components/screenshot/ScreenshotPreview';

export interface ScreenshotDialogProps {
  accountId: string;
  conversationId: string;
  onClose: () => void;
}

const counts = Array.from({ length: SCREENSHOT_MESSAGES_MAX }, (_, i) => i + 1);
/** The browser's zone, so the phone's clock reads as the user's. */
const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Screenshot of the conversation: its last messages on a phone, drawn by the server (docs/tools.md), with the
 * contact's name and number hidden on request; a preview and its PNG to download.
 */
export const ScreenshotDialog = ({ accountId, conversationId, onClose }: ScreenshotDialogProps) => {
  const titleId = useId();
  const [mask, setMask] = useState(true);
  const [count, setCount] = useState(SCREENSHOT_MESSAGES_MAX);
  const pathFor = (scale: ScreenshotScale): string => {
    const query = new URLSearchParams({ count: String(count), mask: String(mask), scale: String(scale), timeZone: browserTimeZone() });
    return `/v1/accounts/${accountId}/conversations/${conversationId}/screenshot?${query.toString()}`;
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Screenshot</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2, mt: 1 }}>
          <FormControlLabel
            label="Hide name and number"
            control={
              <Switch
                checked={mask}
                onChange={(event) => {
                  setMask(event.target.checked);
                }}
              />
            }
          />
          <TextField
            select
            size="small"
            label="Messages"
            value={count}
            sx={{ width: 120 }}
            onChange={(event) => {
              setCount(Number(event.target.value));
            }}
          >
            {counts.map((n) => (
              <MenuItem key={n} value={n}>
                Last {n}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {/* Narrower than the page's, so the downloads stay in sight beside the dialog's controls. */}
        <ScreenshotPreview pathFor={pathFor} fileName="conversation" emptyText="" maxWidth={240} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
