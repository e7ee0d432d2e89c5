import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';

export interface ErrorAlertProps {
  message: string;
  onRetry?: () => void;
}

/** How a failed call is shown: an alert titled 'Error' with the message. */
export const ErrorAlert = ({ message, onRetry }: ErrorAlertProps) => (
  <Alert
    severity="error"
    variant="outlined"
    sx={{ bgcolor: 'background.paper' }}
    action={
      onRetry === undefined ? undefined : (
        <Button color="inherit" size="small" onClick={onRetry}>
          Retry
        </Button>
      )
    }
  >
    <AlertTitle>Error</AlertTitle>
    {message}
  </Alert>
);
