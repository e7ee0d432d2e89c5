import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import Button from '@mui/material/Button';
import type { FeatureRequest } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { useVote } from './queries';

/** The vote count, which votes or takes the vote back at a click (shown at once, undone if refused). */
export const VoteButton = ({ post }: { post: FeatureRequest }) => {
  const vote = useVote();
  const snackbar = useSnackbar();
  const label = post.voted ? `Remove your vote from ${post.title}` : `Vote for ${post.title}`;
  return (
    <Button
      variant={post.voted ? 'contained' : 'outlined'}
      aria-label={label}
      aria-pressed={post.voted}
      title={post.voted ? 'Remove your vote' : 'Vote'}
      onClick={(event) => {
        event.stopPropagation();
        vote.mutate(
          { id: post.id, voted: !post.voted },
          {
            onError: (error) => {
              snackbar.show(`Your vote was not counted - ${errorMessage(error)}`);
            },
          },
        );
      }}
      sx={{ flexDirection: 'column', minWidth: 56, px: 1, py: 0.5, lineHeight: 1.1 }}
    >
      <KeyboardArrowUpIcon fontSize="small" />
      <span aria-label="votes">{post.voteCount}</span>
    </Button>
  );
};
