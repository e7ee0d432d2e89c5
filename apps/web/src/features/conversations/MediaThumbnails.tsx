import BrokenImageOutlined from '@mui/icons-material/BrokenImageOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { mediaChipName, type MessageMedia } from '@parley/shared';
import { isImageMedia, mediaViewerPath } from '../../components/media/mediaUrls';
import { useMediaSource } from '../../components/media/useMediaBlob';

export interface MediaThumbnailsProps {
  messageId: string;
  media: MessageMedia[];
  /** The edge of a square thumbnail in pixels (default 96). */
  size?: number;
}

const Thumbnail = ({ item, size }: { item: MessageMedia; size: number }) => {
  const source = useMediaSource(item.url);
  const box = { width: size, height: size, borderRadius: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'action.hover' } as const;
  if (source.failed) return <Box sx={box}><BrokenImageOutlined color="disabled" titleAccess="The picture could not be loaded" /></Box>;
  if (source.src === null) return <Box sx={box}><CircularProgress size={20} aria-label="Loading picture" /></Box>;
  return <Box component="img" src={source.src} alt={item.filename === '' ? 'Picture' : item.filename} sx={{ ...box, objectFit: 'cover' }} />;
};

/**
 * A message's media as thumbnails (pictures fetched as blobs with the user's token); other types show
 * their name. A click opens the item in the viewer (/media/{messageId}/{idx}) in a new tab.
 */
export const MediaThumbnails = ({ messageId, media, size = 96 }: MediaThumbnailsProps) => {
  if (media.length === 0) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {media.map((item, idx) => (
        <Link
          // The same URL may be attached twice; the index tells them apart.
          key={`${String(idx)}:${item.url}`}
          href={mediaViewerPath(messageId, idx)}
          target="_blank"
          rel="noopener"
          aria-label={`Open ${item.filename === '' ? `attachment ${String(idx + 1)}` : item.filename}`}
          underline="none"
          sx={{ display: 'inline-flex' }}
        >
          {isImageMedia(item) ? (
            <Thumbnail item={item} size={size} />
          ) : (
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', px: 1, py: 0.5, borderRadius: 1, bgcolor: 'action.hover' }}>
              <InsertDriveFileOutlined fontSize="small" />
              <Typography variant="body2">{mediaChipName(item.filename === '' ? item.type : item.filename)}</Typography>
            </Stack>
          )}
        </Link>
      ))}
    </Stack>
  );
};
