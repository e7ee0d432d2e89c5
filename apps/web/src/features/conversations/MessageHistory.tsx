import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConversationMessages } from './inbox/queries';
import { useAcceptableHours } from '../messaging';
import { chronological } from './history';
import { MessageBubble } from './MessageBubble';

/** How close to the bottom still counts as reading the newest (then a new message scrolls into view). */
const NEAR_BOTTOM_PX = 80;

/** The conversation's messages, newest at the bottom, with 'Load Older' for what came before. */
interface MessageHistoryProps {
  accountId: string;
  conversationId: string;
  contactId: string;
}

export const MessageHistory = ({ accountId, conversationId, contactId }: MessageHistoryProps) => {
  const history = useConversationMessages(accountId, conversationId);
  const recipientZone = useAcceptableHours(accountId, contactId).data?.timeZone ?? null;
  const messages = useMemo(() => chronological(history.data?.pages ?? []), [history.data]);
  const scroller = useRef<HTMLDivElement | null>(null);
  const newestId = messages.at(-1)?.id;
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    // A new newest message: follow it when the reader was at the bottom (always on first load).
    const box = scroller.current;
    if (box !== null && atBottom.current) box.scrollTop = box.scrollHeight;
  }, [newestId]);

  return (
    <Box
      ref={scroller}
      role="log"
      aria-label="Messages"
      aria-live="polite"
      onScroll={(event) => {
        const box = event.currentTarget;
        atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX;
      }}
      // The header and the send box stay on screen; the history scrolls between them.
      sx={{ flex: 1, minHeight: 240, maxHeight: 'calc(100vh - 470px)', overflowY: 'auto', p: 2, bgcolor: 'background.default' }}
    >
      {history.hasNextPage && (
        <Stack sx={{ alignItems: 'center', mb: 2 }}>
          <Button size="small" variant="outlined" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
            Load Older
          </Button>
        </Stack>
      )}
      {history.isPending && (
        <Stack sx={{ alignItems: 'center', py: 4 }}>
          <CircularProgress size={24} aria-label="Loading messages" />
        </Stack>
      )}
      {history.isError && <ErrorAlert message={errorMessage(history.error)} onRetry={() => void history.refetch()} />}
      {history.isSuccess && messages.length === 0 && (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          No messages yet
        </Typography>
      )}
      <Stack spacing={1.5}>
        {messages.map((message) => (
          <MessageBubble key={message.id} accountId={accountId} message={message} recipientZone={recipientZone} />
        ))}
      </Stack>
    </Box>
  );
};
