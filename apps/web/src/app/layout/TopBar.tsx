import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { WebPushButton } from '../../pwa/WebPushButton';
import { Brand } from './Brand';

interface TopBarProps {
  /** The current account's name; null until accounts exist. */
  accountName: string | null;
  /** Upgrade, account settings and the account menu, when someone is signed in. */
  actions: ReactNode;
  menuOpen: boolean;
  onMenuClick: () => void;
}

export const TopBar = ({ accountName, actions, menuOpen, onMenuClick }: TopBarProps) => (
  <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
    <Toolbar>
      <IconButton
        edge="start"
        aria-label="Open menu"
        aria-expanded={menuOpen}
        aria-controls="side-menu"
        onClick={onMenuClick}
        sx={{ mr: 1, display: { md: 'none' } }}
      >
        <MenuIcon />
      </IconButton>
      <Brand />
      <Box sx={{ flexGrow: 1 }} />
      {accountName !== null && (
        <Typography component="span" variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="account-name">
          {accountName}
        </Typography>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', ml: 1 }}>
        {/* Shows itself only inside an account, where the browser and the server can push. */}
        <WebPushButton />
        {actions}
      </Box>
    </Toolbar>
  </AppBar>
);
