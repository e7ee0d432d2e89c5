import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FEATURE_REQUESTS_EMPTY_STATE, type FeatureRequest } from '@parley/shared';
import { StatusChip } from './StatusChip';
import { VoteButton } from './VoteButton';

const PostCard = ({ post, onOpen }: { post: FeatureRequest; onOpen: () => void }) => (
  <Card variant="outlined" component="li" aria-label={post.title} sx={{ display: 'flex', alignItems: 'stretch' }}>
    <Box sx={{ p: 1.5, display: 'flex', alignItems: 'flex-start' }}>
      <VoteButton post={post} />
    </Box>
    <CardActionArea onClick={onOpen} sx={{ p: 1.5, pl: 0, minWidth: 0 }}>
      <Stack spacing={0.5}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {post.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}>
          {post.text}
        </Typography>
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          <StatusChip status={post.status} />
          <Typography variant="caption" color="text.secondary" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            <ChatBubbleOutlineIcon sx={{ fontSize: 14 }} aria-hidden />
            {post.commentCount === 1 ? '1 comment' : `${post.commentCount} comments`}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {post.author?.name ?? 'Anonymous'} · {new Date(post.createdAt).toLocaleDateString()}
          </Typography>
        </Stack>
      </Stack>
    </CardActionArea>
  </Card>
);

/** The board's posts, each with its vote button; a click opens the post. */
export const PostList = ({ posts, onOpen }: { posts: readonly FeatureRequest[]; onOpen: (post: FeatureRequest) => void }) =>
  posts.length === 0 ? (
    <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
      {FEATURE_REQUESTS_EMPTY_STATE}
    </Typography>
  ) : (
    <Stack component="ul" aria-label="Feature requests" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {posts.map((post) => (
        <PostCard
          key={post.id}
          post={post}
          onOpen={() => {
            onOpen(post);
          }}
        />
      ))}
    </Stack>
  );
