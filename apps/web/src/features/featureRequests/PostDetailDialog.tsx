import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/client';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import { useIsPhone } from '../../components/useIsPhone';
import { CommentSection } from './CommentSection';
import { OperatorControls } from './OperatorControls';
import { PostDialog } from './PostDialog';
import { StatusChip } from './StatusChip';
import { useFeatureRequest, useRemoveFeatureRequest } from './queries';
import { VoteButton } from './VoteButton';

interface PostDetailDialogProps {
  id: string;
  operator: boolean;
  onClose: () => void;
}

/** One post: its text, vote, status, comments, and the operators' controls. */
export const PostDetailDialog = ({ id, operator, onClose }: PostDetailDialogProps) => {
  const titleId = useId();
  const phone = useIsPhone();
  const snackbar = useSnackbar();
  const post = useFeatureRequest(id);
  const remove = useRemoveFeatureRequest();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const data = post.data;

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle id={titleId} sx={{ pr: 6, overflowWrap: 'anywhere' }}>
        {data?.title ?? 'Feature request'}
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {post.isError && <Alert severity="error">{errorMessage(post.error)}</Alert>}
        {data !== undefined && (
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
              <VoteButton post={data} />
              <Stack spacing={1} sx={{ minWidth: 0, flex: 1 }}>
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                  <StatusChip status={data.status} />
                  <Typography variant="caption" color="text.secondary">
                    {data.author?.name ?? 'Anonymous'} · {new Date(data.createdAt).toLocaleString()}
                  </Typography>
                </Stack>
                <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{data.text}</Typography>
              </Stack>
            </Stack>
            {operator && (
              <OperatorControls
                post={data}
                onEdit={() => {
                  setEditing(true);
                }}
                onRemove={() => {
                  remove.reset();
                  setRemoving(true);
                }}
              />
            )}
            <Divider />
            <CommentSection postId={data.id} operator={operator} />
          </Stack>
        )}
      </DialogContent>
      {editing && data !== undefined && (
        <PostDialog
          post={data}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
      {removing && data !== undefined && (
        <RemoveDialog
          title="Remove Feature Request"
          message={`Remove "${data.title}" with its votes and comments?`}
          removal={remove}
          onCancel={() => {
            setRemoving(false);
          }}
          onConfirm={() => {
            remove.mutate(data.id, {
              onSuccess: () => {
                snackbar.show('Request removed');
                onClose();
              },
            });
          }}
        />
      )}
    </Dialog>
  );
};
