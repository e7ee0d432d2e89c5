import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SimulatorMessage } from '@parley/shared';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { CallBubble } from './CallBubble';
import { bubbleSide, statusLine } from './simulatorView';

interface PhoneBubbleProps {
  accountId: string;
  message: SimulatorMessage;
  /** The role may act for the phone: a call's buttons show. */
  canAct: boolean;
  /** Name the business number: the thread holds more than one. */
  showBusiness: boolean;
  /** A picture has loaded and has its height. */
  onMediaLoad: () => void;
}

/** One message of a virtual phone's thread, on its side, or a call across the thread. */
export const PhoneBubble = ({ accountId, message, canAct, showBusiness, onMediaLoad }: PhoneBubbleProps) => {
  const display = usePhoneDisplay();
  const side = bubbleSide(message.kind);
  if (side === 'call') return <CallBubble accountId={accountId} message={message} canAct={canAct} />;
  const received = side === 'received';
  const failed = message.error !== null;
  return (
    <Box sx={{ alignSelf: received ? 'flex-start' : 'flex-end', maxWidth: '85%' }}>
      <Box
        sx={{
          px: 1.5,
          py: 1,
          borderRadius: 3,
          borderBottomLeftRadius: received ? 4 : undefined,
          borderBottomRightRadius: received ? undefined : 4,
          bgcolor: received ? 'grey.200' : 'primary.main',
          color: received ? 'text.primary' : 'primary.contrastText',
          opacity: failed ? 0.7 : 1,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {message.media.map((item) => (
          <Box
            key={item.url}
            component="img"
            src={item.url}
            alt="Picture"
            onLoad={onMediaLoad}
            sx={{ display: 'block', maxWidth: '100%', width: 160, borderRadius: 2, mb: message.body === '' ? 0 : 0.5 }}
          />
        ))}
        {message.body !== '' && <Typography variant="body2">{message.body}</Typography>}
      </Box>
      <Typography
        variant="caption"
        color={failed ? 'error' : 'text.secondary'}
        sx={{ display: 'block', textAlign: received ? 'left' : 'right', px: 0.5 }}
      >
        {showBusiness ? `${received ? 'From' : 'To'} ${display.phone(message.businessNumber)} · ` : ''}
        {statusLine(message)}
      </Typography>
    </Box>
  );
};
