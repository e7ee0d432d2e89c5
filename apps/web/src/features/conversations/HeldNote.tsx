import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { can, localTimeOfDay, type Message } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { messageTime } from './inbox/format';
import { useApproveHeld } from '../messaging';
import { useOptionalSession } from '../../session/sessionContext';

/** Whether quiet hours hold the message: ours, queued, and due later than now. */
export const isHeld = (message: Message, now: number = Date.now()): boolean =>
  message.outgoing && message.status === 'queued' && message.sendAfter !== undefined && new Date(message.sendAfter).getTime() > now;

interface HeldNoteProps {
  accountId: string;
  message: Message;
  /** The recipient's zone, when known: the time is said as the recipient's clock shows it. */
  recipientZone: string | null;
}

/**
 * "Held until 08:00 recipient time" under a message quiet hours hold, with Send now for those who may
 * approve sending outside acceptable hours (administrators).
 */
export const HeldNote = ({ accountId, message, recipientZone }: HeldNoteProps) => {
  const role = useOptionalSession()?.account?.user.role ?? null;
  const approve = useApproveHeld(accountId);
  const snackbar = useSnackbar();
  const sendAfter = message.sendAfter ?? message.created.at;
  const until = recipientZone === null ? messageTime(sendAfter) : `${localTimeOfDay(new Date(sendAfter), recipientZone)} recipient time`;
  return (
    <>
      <Typography variant="caption" color="text.secondary" data-testid="held-note">
        Held until {until}
      </Typography>
      {role !== null && can(role, 'account.manage') && (
        <Button
          size="small"
          sx={{ py: 0, minWidth: 0 }}
          loading={approve.isPending}
          onClick={() => {
            approve.mutate([message.id], {
              onSuccess: (answer) => {
                snackbar.show(answer.data.approved === 1 ? 'Sending now' : 'The message is no longer held');
              },
              onError: (error) => {
                snackbar.show(errorMessage(error));
              },
            });
          }}
        >
          Send now
        </Button>
      )}
    </>
  );
};
