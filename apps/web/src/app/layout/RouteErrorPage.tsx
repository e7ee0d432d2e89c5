import Box from '@mui/material/Box';
import { useRouteError } from 'react-router';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';

/** A page that failed to load or render, most often code of an older release that is gone. */
export const RouteErrorPage = () => {
  const error = useRouteError();
  return (
    <Box sx={{ p: 3 }}>
      <ErrorAlert
        message={errorMessage(error)}
        onRetry={() => {
          window.location.reload();
        }}
      />
    </Box>
  );
};
