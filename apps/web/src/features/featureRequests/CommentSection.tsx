import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { FEATURE_COMMENT_MAX, featureCommentInputSchema, type FeatureComment, type FeatureCommentInput } from '@parley/shared';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { useAddComment, useFeatureComments, useRemoveComment } from './queries';

const CommentItem = ({ comment, onRemove }: { comment: FeatureComment; onRemove: (() => void) | null }) => (
  <Stack component="li" direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
    <Stack sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {comment.author?.name ?? 'Anonymous'} · {new Date(comment.createdAt).toLocaleString()}
      </Typography>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {comment.text}
      </Typography>
    </Stack>
    {onRemove !== null && (
      <IconButton size="small" aria-label="Remove comment" onClick={onRemove}>
        <DeleteOutlined fontSize="small" />
      </IconButton>
    )}
  </Stack>
);

const CommentForm = ({ postId }: { postId: string }) => {
  const add = useAddComment(postId);
  const { register, handleSubmit, formState, reset } = useForm<FeatureCommentInput>({
    resolver: zodResolver(featureCommentInputSchema),
    defaultValues: { text: '' },
  });
  const submit: SubmitHandler<FeatureCommentInput> = (values) => {
    add.mutate(values, {
      onSuccess: () => {
        reset({ text: '' });
      },
    });
  };
  return (
    <Stack component="form" noValidate aria-label="Add a comment" spacing={1} onSubmit={(event) => void handleSubmit(submit)(event)}>
      <TextField
        label="Comment"
        multiline
        minRows={2}
        size="small"
        disabled={add.isPending}
        {...register('text')}
        error={!!formState.errors.text}
        helperText={formState.errors.text?.message}
        slotProps={{ htmlInput: { maxLength: FEATURE_COMMENT_MAX } }}
      />
      {add.isError && <Alert severity="error">{errorMessage(add.error)}</Alert>}
      <Button type="submit" variant="outlined" disabled={add.isPending} sx={{ alignSelf: 'flex-end' }}>
        Comment
      </Button>
    </Stack>
  );
};

/** A post's comments, oldest first, with the form to add one; operators may remove them. */
export const CommentSection = ({ postId, operator }: { postId: string; operator: boolean }) => {
  const comments = useFeatureComments(postId);
  const remove = useRemoveComment(postId);
  const snackbar = useSnackbar();
  const list = comments.data?.data ?? [];
  return (
    <Stack spacing={2}>
      <Typography variant="subtitle2" component="h3">
        Comments
      </Typography>
      {comments.isError && <Alert severity="error">{errorMessage(comments.error)}</Alert>}
      {comments.isSuccess && list.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No comments yet
        </Typography>
      )}
      <Stack component="ul" aria-label="Comments" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {list.map((comment) => (
          <CommentItem
            key={comment.id}
            comment={comment}
            onRemove={
              operator
                ? () => {
                    remove.mutate(comment.id, { onError: (error) => { snackbar.show(errorMessage(error)); } });
                  }
                : null
            }
          />
        ))}
      </Stack>
      <CommentForm postId={postId} />
    </Stack>
  );
};
