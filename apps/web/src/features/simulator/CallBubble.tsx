import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SimulatorMessage } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { useCallAction } from './queries';
import { callButtonLabels, callButtons, statusLine } from './simulatorView';

interface CallBubbleProps {
  accountId: string;
  message: SimulatorMessage;
  /** The role may act for the phone (messages.send): the call's buttons show. */
  canAct: boolean;
}

/** A call across a virtual phone's thread: a verification call, or a voice call with its buttons (docs/calls.md). */
export const CallBubble = ({ accountId, message, canAct }: CallBubbleProps) => {
  const display = usePhoneDisplay();
  const act = useCallAction(accountId);
  const buttons = canAct ? callButtons(message) : [];
  return (
    <Stack
      spacing={1}
      sx={{ alignSelf: 'stretch', px: 1.5, py: 1, borderRadius: 2, bgcolor: 'background.paper', border: 1, borderColor: 'warning.light' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <PhoneInTalkOutlined fontSize="small" color="warning" />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            {message.body}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {statusLine(message)} · {display.phone(message.businessNumber)}
          </Typography>
        </Box>
      </Stack>
      {buttons.length > 0 && (
        <Stack direction="row" spacing={1}>
          {buttons.map((action) => (
            <Button
              key={action}
              size="small"
              variant={action === 'answer' ? 'contained' : 'outlined'}
              color={action === 'answer' ? 'success' : 'error'}
              disabled={act.isPending}
              onClick={() => {
                act.mutate({ phone: message.phoneNumber, id: message.id, action });
              }}
            >
              {callButtonLabels[action]}
            </Button>
          ))}
        </Stack>
      )}
      {act.isError && (
        <Typography variant="caption" color="error" role="alert">
          {errorMessage(act.error)}
        </Typography>
      )}
    </Stack>
  );
};
