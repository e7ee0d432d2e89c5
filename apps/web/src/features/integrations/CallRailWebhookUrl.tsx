import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { callRailWebhookPath, type Integration } from '@parley/shared';

/** The address to paste into CallRail as the company's post-call webhook. */
export const CallRailWebhookUrl = ({ integration }: { integration: Integration }) => {
  const token = integration.connection?.webhookToken;
  if (token === undefined) return null;
  const url = `${window.location.origin}${callRailWebhookPath(token)}`;
  return (
    <Stack spacing={1} sx={{ maxWidth: 720 }}>
      <Typography variant="h2">Webhook</Typography>
      <Typography variant="body2">
        In CallRail, open Integrations, Webhooks, choose the company and paste this address as its Post-Call webhook (and Call Modified, for
        recordings added later).
      </Typography>
      <TextField label="Webhook URL" value={url} slotProps={{ input: { readOnly: true } }} onFocus={(event) => { event.target.select(); }} fullWidth />
    </Stack>
  );
};
