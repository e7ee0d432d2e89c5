import CloseOutlined from '@mui/icons-material/CloseOutlined';
import MarkChatUnreadOutlined from '@mui/icons-material/MarkChatUnreadOutlined';
import ScreenshotOutlined from '@mui/icons-material/ScreenshotOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { can, type Conversation, type Role } from '@parley/shared';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { CallButton } from '../calls';
import { useGroups } from '../groups';
import { useCloseConversation, useMarkConversationRead } from './inbox/queries';
import { AssignGroupMenu } from './AssignGroupMenu';
import { ScreenshotDialog } from './ScreenshotDialog';

export const CONVERSATIONS_PATH = '/conversations';

interface ConversationActionsProps {
  accountId: string;
  role: Role;
  conversation: Conversation;
  /** How the contact is named (in the close confirmation and its notice). */
  name: string;
  /** A phone: icon buttons with their names as tooltips, so the row fits beside the name. */
  compact: boolean;
  /** Marking unread pauses the view's marking read (true) until it fails (false) or the view is left. */
  onPauseReading: (paused: boolean) => void;
}

interface ActionButtonProps {
  label: string;
  icon: ReactNode;
  compact: boolean;
  color?: 'error';
  loading?: boolean;
  onClick: () => void;
}

const ActionButton = ({ label, icon, compact, color, loading, onClick }: ActionButtonProps) =>
  compact ? (
    <Tooltip title={label}>
      <IconButton aria-label={label} color={color} loading={loading} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  ) : (
    <Button variant="outlined" color={color} startIcon={icon} loading={loading} onClick={onClick}>
      {label}
    </Button>
  );

/**
 * What the user may do with a conversation: call the contact, take a screenshot of it; while open, assign a
 * group, mark it unread, close it (asking first).
 */
export const ConversationActions = ({ accountId, role, conversation, name, compact, onPauseReading }: ConversationActionsProps) => {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const open = !conversation.closed;
  const canAssign = open && can(role, 'conversations.assignGroup');
  const groups = useGroups(accountId);
  const groupList = canAssign ? (groups.data?.data ?? []) : [];
  const close = useCloseConversation(accountId, conversation.id);
  const markUnread = useMarkConversationRead(accountId, conversation.id);
  const [confirmingClose, setConfirmingClose] = useState(false);
  const [screenshot, setScreenshot] = useState(false);

  return (
    <Stack direction="row" spacing={compact ? 0 : 1} sx={{ flexWrap: 'wrap', flexShrink: 0 }} useFlexGap>
      {conversation.phoneNumber !== undefined && (
        <CallButton accountId={accountId} role={role} destination={conversation.contact.mobile.number} fromId={conversation.phoneNumber.id} compact={compact} />
      )}
      {groupList.length > 0 && <AssignGroupMenu accountId={accountId} conversation={conversation} groups={groupList} compact={compact} />}
      {open && can(role, 'messages.markRead') && (
        <ActionButton
          label="Mark Unread"
          icon={<MarkChatUnreadOutlined />}
          compact={compact}
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
        />
      )}
      <ActionButton
        label="Screenshot"
        icon={<ScreenshotOutlined />}
        compact={compact}
        onClick={() => {
          setScreenshot(true);
        }}
      />
      {open && can(role, 'conversations.close') && (
        <ActionButton
          label="Close Conversation"
          icon={<CloseOutlined />}
          compact={compact}
          color="error"
          onClick={() => {
            close.reset();
            setConfirmingClose(true);
          }}
        />
      )}
      {screenshot && (
        <ScreenshotDialog
          accountId={accountId}
          conversationId={conversation.id}
          onClose={() => {
            setScreenshot(false);
          }}
        />
      )}
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
