import ArrowBack from '@mui/icons-material/ArrowBack';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Conversation, Role } from '@parley/shared';
import { Link as RouterLink } from 'react-router';
import { useIsPhone } from '../../components/useIsPhone';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { ConversationActions, CONVERSATIONS_PATH } from './ConversationActions';

export { CONVERSATIONS_PATH } from './ConversationActions';

interface ConversationHeaderProps {
  accountId: string;
  role: Role;
  conversation: Conversation;
  /** Marking unread pauses the view's marking read (true) until it fails (false) or the view is left. */
  onPauseReading: (paused: boolean) => void;
}

/**
 * Who the conversation is with and from which number, the way back to the list, and what the user may do
 * with it. On a phone the actions are icons on the name's row.
 */
export const ConversationHeader = ({ accountId, role, conversation, onPauseReading }: ConversationHeaderProps) => {
  const display = usePhoneDisplay();
  const compact = useIsPhone();
  const open = !conversation.closed;
  const name = display.name(conversation.contact);
  const number = display.phone(conversation.contact.mobile.number);

  return (
    <Stack
      direction={{ xs: 'row', sm: 'column', md: 'row' }}
      spacing={{ xs: 0.5, sm: 1.5 }}
      sx={{ p: { xs: 1, sm: 2 }, borderBottom: 1, borderColor: 'divider', alignItems: { xs: 'center', sm: 'stretch', md: 'center' } }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
        <IconButton component={RouterLink} to={CONVERSATIONS_PATH} aria-label="Back to Conversations" edge="start" sx={{ ml: { xs: 0, sm: -1.5 } }}>
          <ArrowBack />
        </IconButton>
        <Stack sx={{ minWidth: 0 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.125rem', sm: '1.375rem' } }} noWrap>
            {name}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            {/* A nameless contact's title is its number already. */}
            {number !== name && (
              <Typography variant="body2" color="text.secondary" data-testid="contact-number" noWrap>
                {number}
              </Typography>
            )}
            {conversation.phoneNumber !== undefined && (
              <Typography variant="body2" color="text.secondary" data-testid="our-number" noWrap>
                via {display.phone(conversation.phoneNumber.number)}
              </Typography>
            )}
            {conversation.group !== undefined && <Chip size="small" label={conversation.group.name} aria-label={`Group ${conversation.group.name}`} />}
            {conversation.contact.optedOut !== undefined && <Chip size="small" color="warning" variant="outlined" label="Opted out" />}
            {conversation.contact.blocked !== undefined && <Chip size="small" color="warning" variant="outlined" label="Blocked" />}
            {!open && <Chip size="small" label="Closed" />}
          </Stack>
        </Stack>
      </Stack>
      <ConversationActions
        accountId={accountId}
        role={role}
        conversation={conversation}
        name={name}
        compact={compact}
        onPauseReading={onPauseReading}
      />
    </Stack>
  );
};
