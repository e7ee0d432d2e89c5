import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Brand } from './Brand';
import { PageFallback } from './PageFallback';

/** For pages outside an account: sign-in, sign-up, not found. */
export const PlainLayout = () => (
  <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
    <AppBar position="static">
      <Toolbar>
        <Brand />
      </Toolbar>
    </AppBar>
    <Container component="main" maxWidth="md" sx={{ py: 6, position: 'relative', flexGrow: 1 }}>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </Container>
  </Box>
);
