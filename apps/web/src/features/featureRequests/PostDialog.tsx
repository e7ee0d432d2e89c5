import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FEATURE_TEXT_MAX, FEATURE_TITLE_MAX, newFeatureRequestSchema, type FeatureRequest, type NewFeatureRequest } from '@parley/shared';
import { useId } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { useSnackbar } from '../../components/snackbarContext';
import { useIsPhone } from '../../components/useIsPhone';
import { usePostFeatureRequest, useUpdateFeatureRequest } from './queries';

interface PostDialogProps {
  /** The post an operator edits; null for a new one. */
  post: FeatureRequest | null;
  onClose: () => void;
}

/** 'New Feature Request' (everyone) or 'Edit Feature Request' (operators): a title and what it is about. */
export const PostDialog = ({ post, onClose }: PostDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const phone = useIsPhone();
  const create = usePostFeatureRequest();
  const update = useUpdateFeatureRequest(post?.id ?? '');
  const save = post === null ? create : update;
  const { register, handleSubmit, formState } = useForm<NewFeatureRequest>({
    resolver: zodResolver(newFeatureRequestSchema),
    defaultValues: { title: post?.title ?? '', text: post?.text ?? '' },
  });
  const submit: SubmitHandler<NewFeatureRequest> = (values) => {
    const done = () => {
      snackbar.show(post === null ? 'Request posted' : 'Request saved');
      onClose();
    };
    if (post === null) create.mutate(values, { onSuccess: done });
    else update.mutate(values, { onSuccess: done });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{post === null ? 'New Feature Request' : 'Edit Feature Request'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Title"
              required
              autoFocus
              disabled={save.isPending}
              {...register('title')}
              error={!!formState.errors.title}
              helperText={formState.errors.title?.message ?? 'A short summary of the feature'}
              slotProps={{ htmlInput: { maxLength: FEATURE_TITLE_MAX } }}
            />
            <TextField
              label="Details"
              required
              multiline
              minRows={4}
              disabled={save.isPending}
              {...register('text')}
              error={!!formState.errors.text}
              helperText={formState.errors.text?.message ?? 'What should it do, and why would it help you?'}
              slotProps={{ htmlInput: { maxLength: FEATURE_TEXT_MAX } }}
            />
            {save.isError && <Alert severity="error">{errorMessage(save.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogFooter label={post === null ? 'Post' : 'Save'} onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
