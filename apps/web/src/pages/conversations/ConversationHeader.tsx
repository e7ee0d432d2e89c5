import ArrowBack from '@mui/icons-material/ArrowBack';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import MarkChatUnreadOutlined from '@mui/icons-material/MarkChatUnreadOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can, type Conversation, type Role } from '@parley/shared';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useGroups } from '../../groups/queries';
import { conversationTitle } from '../../inbox/format';
import { useCloseConversation, useMarkConversationRead } from '../../inbox/queries';
import { AssignGroupMenu } from './AssignGroupMenu';

export const CONVERSATIONS_PATH = '/conversations';

interface ConversationHeaderProps {
  accountId: string;
  role: Role;
  conversation: Conversation;
  /** Marking unread pauses the view's marking read (true) until it fails (false) or the view is left. */
  onPauseReading: (paused: boolean) => void;
}

/** Who the conversation is with and from which number, and what the user may do with it. */
export const ConversationHeader = ({ accountId, role, conversation, onPauseReading }: ConversationHeaderProps) => {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const open = conversation.closed === null;
  const canAssign = open && can(role, 'conversations.assignGroup');
  const groups = useGroups(accountId);
  const groupList = canAssign ? (groups.data?.data ?? []) : [];
  const close = useCloseConversation(accountId, conversation.id);
  const markUnread = useMarkConversationRead(accountId, conversation.id);
  const [confirmingClose, setConfirmingClose] = useState(false);
  const name = conversationTitle(conversation);

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ p: 2, borderBottom: 1, borderColor: 'divider', alignItems: { md: 'center' } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
        <IconButton component={RouterLink} to={CONVERSATIONS_PATH} aria-label="Back to Conversations" edge="start">
          <ArrowBack />
        </IconButton>
        <Stack sx={{ minWidth: 0 }}>
          <Typography variant="h1" sx={{ fontSize: '1.375rem' }} noWrap>
            {name}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <Typography variant="body2" color="text.secondary" data-testid="contact-number">
              {conversation.contact.mobile}
            </Typography>
            {conversation.phoneNumber !== null && (
              <Typography variant="body2" color="text.secondary" data-testid="our-number">
                via {conversation.phoneNumber.number}
              </Typography>
            )}
            {conversation.group !== null && <Chip size="small" label={conversation.group.name} aria-label={`Group ${conversation.group.name}`} />}
            {conversation.contact.optedOut !== null && <Chip size="small" color="warning" variant="outlined" label="Opted out" />}
            {conversation.contact.blocked !== null && <Chip size="small" color="warning" variant="outlined" label="Blocked" />}
            {!open && <Chip size="small" label="Closed" />}
          </Stack>
        </Stack>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} useFlexGap>
        {groupList.length > 0 && <AssignGroupMenu accountId={accountId} conversation={conversation} groups={groupList} />}
        {open && can(role, 'messages.markRead') && (
          <Button
            variant="outlined"
            startIcon={<MarkChatUnreadOutlined />}
            loading={markUnread.isPending}
            onClick={() => {
              onPauseReading(true);
              markUnread.mutate(
                { read: false },
                {
                  // Back to the list, where it now shows unread (staying would read it again).
                  onSuccess: () => void navigate(CONVERSATIONS_PATH),
                  onError: (error) => {
                    onPauseReading(false);
                    snackbar.show(errorMessage(error));
                  },
                },
              );
            }}
          >
            Mark Unread
          </Button>
        )}
        {open && can(role, 'conversations.close') && (
          <Button
            variant="outlined"
            color="error"
            startIcon={<CloseOutlined />}
            onClick={() => {
              close.reset();
              setConfirmingClose(true);
            }}
          >
            Close Conversation
          </Button>
        )}
      </Stack>
      {confirmingClose && (
        <ConfirmDialog
          title="Close Conversation"
          message={`Close the conversation with ${name}? It cannot be answered once closed; their next message starts a new one.`}
          confirmLabel="Close"
          pending={close.isPending}
          error={close.isError ? <ErrorAlert message={errorMessage(close.error)} /> : undefined}
          onConfirm={() => {
            close.mutate(undefined, {
              onSuccess: () => {
                snackbar.show(`Closed the conversation with ${name}`);
                void navigate(CONVERSATIONS_PATH);
              },
            });
          }}
          onCancel={() => {
            setConfirmingClose(false);
          }}
        />
      )}
    </Stack>
  );
};
