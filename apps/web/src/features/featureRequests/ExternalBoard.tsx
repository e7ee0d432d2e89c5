import Box from '@mui/material/Box';
import { boardFrameUrl } from './boardFrameUrl';

/** An external voting board (FEATURE_BOARD_URL), signed in with the token. */
export const ExternalBoard = ({ url, token }: { url: string; token: string }) => (
  <Box
    component="iframe"
    title="Feature requests board"
    src={boardFrameUrl(url, token)}
    sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
    referrerPolicy="no-referrer"
    sx={{ border: 0, width: '100%', height: { xs: 'calc(100vh - 160px)', sm: 'calc(100vh - 180px)' }, minHeight: 480, bgcolor: 'background.paper' }}
  />
);
