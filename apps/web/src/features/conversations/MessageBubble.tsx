import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { Message } from '@parley/shared';
import { MediaThumbnails } from './MediaThumbnails';
import { messageTime, statusColour, statusLabel } from './inbox/format';
import { isUnreadMessage } from './inbox/inboxReducer';
import { HeldNote, isHeld } from './HeldNote';

interface MessageBubbleProps {
  accountId: string;
  message: Message;
  /** The contact's zone: a held message says when it goes by the contact's clock. */
  recipientZone: string | null;
}

/** One message of the history: ours on the right, the contact's on the left, with time, status and any error. */
export const MessageBubble = ({ accountId, message, recipientZone }: MessageBubbleProps) => {
  const ours = message.outgoing;
  const unread = isUnreadMessage(message);
  const colour = statusColour(message.status, message.error !== undefined);
  return (
    <Stack
      component="article"
      aria-label={`${ours ? 'Sent' : 'Received'} message`}
      data-testid="message"
      data-direction={ours ? 'outgoing' : 'incoming'}
      sx={{ alignItems: ours ? 'flex-end' : 'flex-start' }}
    >
      <Box
        sx={(theme) => ({
          maxWidth: { xs: '90%', sm: '70%' },
          px: 1.5,
          py: 1,
          borderRadius: 2,
          bgcolor: ours ? alpha(theme.palette.primary.main, 0.1) : theme.palette.background.paper,
          border: 1,
          borderColor: colour === 'error' ? 'error.main' : unread ? 'primary.main' : 'divider',
        })}
      >
        {message.message !== '' && (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontWeight: unread ? 600 : 400 }}>
            {message.message}
          </Typography>
        )}
        {message.media.length > 0 && (
          <Box sx={{ mt: message.message === '' ? 0 : 1 }}>
            <MediaThumbnails messageId={message.id} media={message.media} />
          </Box>
        )}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5, px: 0.5 }}>
        <Typography variant="caption" color="text.secondary" component="time" dateTime={message.created.at}>
          {messageTime(message.created.at)}
        </Typography>
        <Chip size="small" variant="outlined" color={colour} label={statusLabel(message.status)} sx={{ height: 20 }} />
        {isHeld(message) && <HeldNote accountId={accountId} message={message} recipientZone={recipientZone} />}
        {unread && (
          <Typography variant="caption" color="primary" sx={{ fontWeight: 600 }}>
            Unread
          </Typography>
        )}
      </Stack>
      {message.error !== undefined && (
        <Typography variant="caption" color="error" sx={{ px: 0.5 }} role="note">
          {message.error.description}
          {message.error.code === undefined ? '' : ` (${message.error.code})`}
        </Typography>
      )}
    </Stack>
  );
};
