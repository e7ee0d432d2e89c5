import Chip from '@mui/material/Chip';
import { useOptionalSession } from '../../../session/sessionContext';
import { unreadBadgeText } from './format';
import { useUnreadCount } from './queries';

/**
 * The side menu's Conversations badge: how many open conversations hold unread messages, and '+'
 * beyond the maximum. The realtime client keeps the count in step; nothing shows at zero.
 */
export const UnreadBadge = () => {
  const accountId = useOptionalSession()?.account?.id ?? null;
  const count = useUnreadCount(accountId);
  const text = unreadBadgeText(count.data);
  if (text === null) return null;
  return (
    <Chip
      component="span"
      size="small"
      color="error"
      label={text}
      aria-label={`${text} unread`}
      data-testid="unread-badge"
      sx={{ height: 20, fontWeight: 700, '& .MuiChip-label': { px: 0.75 } }}
    />
  );
};
