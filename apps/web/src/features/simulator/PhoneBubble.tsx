import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SimulatorMessage } from '@parley/shared';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { bubbleSide, statusLine } from './simulatorView';

interface PhoneBubbleProps {
  message: SimulatorMessage;
  /** Name the business number: the thread holds more than one. */
  showBusiness: boolean;
  /** A picture has loaded and has its height. */
  onMediaLoad: () => void;
}

/** One message of a virtual phone's thread, on its side, or a call across the thread. */
export const PhoneBubble = ({ message, showBusiness, onMediaLoad }: PhoneBubbleProps) => {
  const display = usePhoneDisplay();
  const side = bubbleSide(message.kind);
  if (side === 'call') {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', alignSelf: 'stretch', px: 1.5, py: 1, borderRadius: 2, bgcolor: 'background.paper', border: 1, borderColor: 'warning.light' }}>
        <PhoneInTalkOutlined fontSize="small" color="warning" />
        <Box>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {message.body}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {statusLine(message)} from {display.phone(message.businessNumber)}
          </Typography>
        </Box>
      </Stack>
    );
  }
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
