import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { can, CONVERSATION_CLOSED_MESSAGE, CONVERSATION_NOT_FOUND_MESSAGE, type Role } from '@parley/shared';
import { useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { messageTime } from './inbox/format';
import { useConversation } from './inbox/queries';
import { useSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import type { PageProps } from '../../app/pageProps';
import { CONVERSATIONS_PATH, ConversationHeader } from './ConversationHeader';
import { MessageHistory } from './MessageHistory';
import { COMPOSE_PARAM } from './paths';
import { ReplyBox } from './ReplyBox';
import { useMarkReadOnView } from './useMarkReadOnView';

/** /conversations/:conversationId: one conversation, its history and the send box. */
export const ConversationPage = (_props: PageProps) => {
  const { conversationId } = useParams();
  const session = useSession();
  const account = session.account;
  if (account === null || conversationId === undefined) return null;
  return (
    <ConversationView
      // A fresh view for another conversation: nothing of the last one's draft or read state carries over.
      key={conversationId}
      accountId={account.id}
      role={account.user.role}
      conversationId={conversationId}
      verified={session.profile.emailVerified}
    />
  );
};

interface ConversationViewProps {
  accountId: string;
  role: Role;
  conversationId: string;
  verified: boolean;
}

const ConversationView = ({ accountId, role, conversationId, verified }: ConversationViewProps) => {
  const conversation = useConversation(accountId, conversationId);
  const display = usePhoneDisplay();
  const [searchParams] = useSearchParams();
  const [readingPaused, setReadingPaused] = useState(false);
  useMarkReadOnView(accountId, conversation.data, can(role, 'messages.markRead') && !readingPaused);

  if (conversation.isPending) {
    return (
      <Stack sx={{ alignItems: 'center', py: 6 }}>
        <CircularProgress aria-label="Loading the conversation" />
      </Stack>
    );
  }
  if (conversation.isError) {
    const missing = conversation.error instanceof ApiError && conversation.error.status === 404;
    return (
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        {missing ? (
          <Alert severity="info">{CONVERSATION_NOT_FOUND_MESSAGE}</Alert>
        ) : (
          <ErrorAlert message={errorMessage(conversation.error)} onRetry={() => void conversation.refetch()} />
        )}
        <Button component={RouterLink} to={CONVERSATIONS_PATH} sx={{ alignSelf: 'flex-start' }}>
          Back to Conversations
        </Button>
      </Stack>
    );
  }

  const current = conversation.data;
  const open = !current.closed;
  return (
    <Paper variant="outlined" component="section" aria-label={`Conversation with ${display.name(current.contact)}`} sx={{ overflow: 'hidden' }}>
      <ConversationHeader accountId={accountId} role={role} conversation={current} onPauseReading={setReadingPaused} />
      <MessageHistory accountId={accountId} conversationId={current.id} contactId={current.contact.id} />
      {!open && (
        <Alert severity="info" square sx={{ borderTop: 1, borderColor: 'divider' }}>
          Closed {current.closedAt === undefined ? '' : messageTime(current.closedAt)}. {CONVERSATION_CLOSED_MESSAGE}
        </Alert>
      )}
      {open && can(role, 'conversations.answer') && (
        <ReplyBox accountId={accountId} conversation={current} verified={verified} autoFocus={searchParams.get(COMPOSE_PARAM) === '1'} />
      )}
    </Paper>
  );
};
