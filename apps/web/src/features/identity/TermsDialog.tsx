import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { profileQueryKey } from '../../session/queries';

/** First-login check 1: the terms must be accepted; No signs out. */
export const TermsDialog = ({ onDecline }: { onDecline: () => void }) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => api.put('/v1/profile/accepttac'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
  return (
    <Dialog open aria-labelledby="terms-title">
      <DialogTitle id="terms-title">Terms and Conditions</DialogTitle>
      <DialogContent>
        <DialogContentText>
          Before you use Parley, please accept the terms and conditions of the service. Do you accept them?
        </DialogContentText>
        {accept.isError && <ErrorAlert message={errorMessage(accept.error)} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onDecline}>No</Button>
        <Button
          variant="contained"
          loading={accept.isPending}
          onClick={() => {
            accept.mutate();
          }}
        >
          Yes
        </Button>
      </DialogActions>
    </Dialog>
  );
};
