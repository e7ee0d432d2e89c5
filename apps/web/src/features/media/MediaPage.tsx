import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { messageRecordSchema, type Message, type MessageMedia } from '@parley/shared';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { isImageMedia } from '../../components/media/mediaUrls';
import { useMediaSource } from '../../components/media/useMediaBlob';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { mediaItemAt } from './mediaItem';

const centered = { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 } as const;

const MediaItem = ({ item }: { item: MessageMedia }) => {
  const source = useMediaSource(item.url);
  const name = item.filename === '' ? 'Attachment' : item.filename;
  if (source.failed) return <ErrorAlert message="The file could not be loaded." />;
  if (source.src === null) return <CircularProgress aria-label="Loading" />;
  if (isImageMedia(item)) return <Box component="img" src={source.src} alt={name} sx={{ maxWidth: '100%', maxHeight: 'calc(100vh - 32px)', objectFit: 'contain' }} />;
  return (
    <Link href={source.src} download={item.filename === '' ? undefined : item.filename} target="_blank" rel="noopener">
      {name} ({item.type})
    </Link>
  );
};

/** /media/{messageId}/{idx}: one media item of a message, without the page wrapper. */
export const MediaPage = (_props: PageProps) => {
  const { messageId = '', idx = '' } = useParams();
  const session = useSession();
  const accountId = session.account?.id ?? '';
  const api = useApiClient();
  const message = useQuery({
    queryKey: ['accounts', accountId, 'messages', messageId],
    enabled: accountId !== '',
    queryFn: async ({ signal }): Promise<Message> =>
      (await api.get(`/v1/accounts/${accountId}/messages/${messageId}`, { schema: messageRecordSchema, signal })).data,
  });
  const item = message.data === undefined ? null : mediaItemAt(message.data.media, idx);
  return (
    <Box sx={centered}>
      {message.isPending && <CircularProgress aria-label="Loading" />}
      {message.isError && <ErrorAlert message={errorMessage(message.error)} />}
      {message.isSuccess && item === null && <Typography color="text.secondary">This message has no such media item.</Typography>}
      {item !== null && <MediaItem item={item} />}
    </Box>
  );
};
