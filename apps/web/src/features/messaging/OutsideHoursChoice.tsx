import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { holdsOneToOne, type AcceptableHoursStatus } from '@parley/shared';
import { useAcceptableHours } from './approvals/queries';

/**
 * The contact's acceptable hours when a one-to-one message to them would wait for them (docs/messaging.md,
 * "Quiet hours"): null for several recipients, a reply to someone who wrote in the last 24 hours, hours that
 * are open or off, and while the answer is not known yet (the server holds the message anyway if it must).
 */
export function useOutsideHours(accountId: string, contactId: string | null): AcceptableHoursStatus | null {
  const status = useAcceptableHours(accountId, contactId).data;
  return status !== undefined && holdsOneToOne(status) ? status : null;
}

/** "Outside acceptable hours for this contact (local 23:10)." */
export const OutsideHoursNotice = ({ status }: { status: AcceptableHoursStatus }) => (
  <Alert severity="info" role="note" data-testid="outside-hours">
    Outside acceptable hours for this contact (local {status.localTime}).
  </Alert>
);

interface SendChoiceProps {
  /** Set when the message would wait: then the sender chooses between now and the opening. */
  outside: AcceptableHoursStatus | null;
  disabled: boolean;
  pending: boolean;
  /** sendNow: the sender chose to send outside the contact's hours. */
  onSend: (sendNow: boolean) => void;
}

/** Send, or, outside the contact's hours, "Send now" and "Send at 08:00". */
export const SendChoice = ({ outside, disabled, pending, onSend }: SendChoiceProps) => {
  if (outside === null) {
    return (
      <Button variant="contained" endIcon={<SendOutlined />} disabled={disabled} loading={pending} onClick={() => { onSend(false); }}>
        Send
      </Button>
    );
  }
  return (
    <Stack direction="row" spacing={1}>
      <Button variant="outlined" disabled={disabled || pending} onClick={() => { onSend(true); }}>
        Send now
      </Button>
      <Button variant="contained" endIcon={<SendOutlined />} disabled={disabled} loading={pending} onClick={() => { onSend(false); }}>
        Send at {outside.opensAtLocal ?? outside.localTime}
      </Button>
    </Stack>
  );
};
