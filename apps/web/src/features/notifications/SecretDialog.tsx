import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useSnackbar } from '../../components/snackbarContext';

interface SecretDialogProps {
  secret: string;
  /** After a rotation: until when the previous secret still signs. */
  previousValidUntil?: string;
  onClose: () => void;
}

/**
 * A webhook's signing secret, shown once: Parley keeps it encrypted and never answers it again
 * (docs/notifications.md, "Webhook secrets"). Only Done closes it, so a stray click cannot lose it.
 */
export const SecretDialog = ({ secret, previousValidUntil, onClose }: SecretDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const copy = (): void => {
    navigator.clipboard.writeText(secret).then(
      () => { snackbar.show('Secret copied'); },
      () => { snackbar.show('The secret could not be copied: select it and copy it by hand'); },
    );
  };
  return (
    <Dialog open aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Signing Secret</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">This secret is shown once; copy it now. It cannot be shown again.</Alert>
          <TextField
            label="Secret"
            value={secret}
            fullWidth
            // Wrapped, so a phone shows all of it.
            multiline
            slotProps={{
              htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace', fontSize: '0.85rem', wordBreak: 'break-all' } },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton aria-label="Copy the secret" onClick={copy}>
                      <ContentCopyOutlined fontSize="small" />
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <DialogContentText>
            Every delivery is signed with it (Standard Webhooks: the webhook-id, webhook-timestamp and webhook-signature headers), so
            the endpoint can check that an event came from this account.
            {previousValidUntil !== undefined &&
              ` The previous secret keeps signing beside it until ${new Date(previousValidUntil).toLocaleString()}: switch the endpoint before then.`}
          </DialogContentText>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
};
