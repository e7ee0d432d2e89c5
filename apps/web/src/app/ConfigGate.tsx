import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useClientConfig } from '../api/useClientConfig';
import { ErrorAlert } from '../components/ErrorAlert';
import { ConfigContext } from './configContext';

const Centered = ({ children }: { children: ReactNode }) => (
  <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
    {children}
  </Box>
);

/** Nothing renders until the server's client configuration has arrived. */
export const ConfigGate = ({ children }: { children: ReactNode }) => {
  const config = useClientConfig();

  if (config.isPending) {
    return (
      <Centered>
        <Typography role="status">Loading...</Typography>
      </Centered>
    );
  }
  if (config.isError) {
    return (
      <Centered>
        <Box sx={{ width: '100%', maxWidth: 480 }}>
          <ErrorAlert
            message={errorMessage(config.error)}
            onRetry={() => {
              void config.refetch();
            }}
          />
        </Box>
      </Centered>
    );
  }
  return <ConfigContext value={config.data}>{children}</ConfigContext>;
};
