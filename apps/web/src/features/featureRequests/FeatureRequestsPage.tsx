import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PageProps } from '../../app/pageProps';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BoardView } from './BoardView';
import { ExternalBoard } from './ExternalBoard';
import { useBoardToken } from './queries';

/**
 * /featurerequests: the deployment's feature-request board. 'Loading...' until the sign-on token arrives
 * (product.md), then the external board with it (FEATURE_BOARD_URL) or the built-in board.
 */
export const FeatureRequestsPage = ({ title }: PageProps) => {
  const token = useBoardToken();
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {token.isPending ? (
        <Box sx={{ py: 4, display: 'flex', justifyContent: 'center' }}>
          <Typography role="status">Loading...</Typography>
        </Box>
      ) : token.isError ? (
        <ErrorAlert message={errorMessage(token.error)} onRetry={() => void token.refetch()} />
      ) : token.data.boardUrl === null ? (
        <BoardView operator={token.data.operator} />
      ) : (
        <ExternalBoard url={token.data.boardUrl} token={token.data.token} />
      )}
    </>
  );
};
