import MenuItem from '@mui/material/MenuItem';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { featureRequestStatuses, featureRequestStatusLabels, type FeatureRequest, type FeatureRequestStatus } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { useUpdateFeatureRequest } from './queries';

interface OperatorControlsProps {
  post: FeatureRequest;
  onEdit: () => void;
  onRemove: () => void;
}

/** What only the deployment's operators see on a post: its status, edit and remove. */
export const OperatorControls = ({ post, onEdit, onRemove }: OperatorControlsProps) => {
  const update = useUpdateFeatureRequest(post.id);
  const snackbar = useSnackbar();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <TextField
        select
        size="small"
        label="Status"
        value={post.status}
        disabled={update.isPending}
        onChange={(event) => {
          const status = event.target.value as FeatureRequestStatus;
          update.mutate(
            { status },
            {
              onSuccess: () => {
                snackbar.show(`Status changed to ${featureRequestStatusLabels[status]}`);
              },
              onError: (error) => {
                snackbar.show(errorMessage(error));
              },
            },
          );
        }}
        sx={{ minWidth: 150 }}
      >
        {featureRequestStatuses.map((s) => (
          <MenuItem key={s} value={s}>
            {featureRequestStatusLabels[s]}
          </MenuItem>
        ))}
      </TextField>
      <Button size="small" onClick={onEdit}>
        Edit
      </Button>
      <Button size="small" color="error" onClick={onRemove}>
        Remove
      </Button>
    </Stack>
  );
};
