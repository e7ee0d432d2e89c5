import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConversationMessages } from './inbox/queries';
import { useConversationCalls } from './inbox/callQueries';
import { useAcceptableHours } from '../messaging';
import { chronological } from './history';
import { MessageBubble } from './MessageBubble';
import { CallLine } from './CallLine';
import { timeline } from './timeline';

/** How close to the bottom still counts as reading the newest (then a new message scrolls into view). */
const NEAR_BOTTOM_PX = 80;

/** The conversation's messages and calls, newest at the bottom, with 'Load Older' for what came before. */
interface MessageHistoryProps {
  accountId: string;
  conversationId: string;
  contactId: string;
}

export const MessageHistory = ({ accountId, conversationId, contactId }: MessageHistoryProps) => {
  const history = useConversationMessages(accountId, conversationId);
  const recipientZone = useAcceptableHours(accountId, contactId).data?.timeZone ?? null;
  const calls = useConversationCalls(accountId, conversationId);
  const messages = useMemo(() => chronological(history.data?.pages ?? []), [history.data]);
  const items = useMemo(() => timeline(messages, calls.data?.data ?? [], history.hasNextPage), [messages, calls.data, history.hasNextPage]);
  const scroller = useRef<HTMLDivElement | null>(null);
  const newest = items.at(-1);
  const newestId = newest === undefined ? undefined : newest.kind === 'call' ? `${newest.call.id}:${newest.call.status}` : newest.message.id;
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
      {history.isSuccess && items.length === 0 && (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          No messages yet
        </Typography>
      )}
      <Stack spacing={1.5}>
        {items.map((item) =>
          item.kind === 'call' ? (
            <CallLine key={item.call.id} call={item.call} />
          ) : (
            <MessageBubble key={item.message.id} accountId={accountId} message={item.message} recipientZone={recipientZone} />
          ),
        )}
      </Stack>
    </Box>
  );
};
