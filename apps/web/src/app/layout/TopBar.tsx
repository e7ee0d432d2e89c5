import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { DeliveryHealthButton } from '../../features/reports';
import { WebPushButton } from '../../pwa/WebPushButton';
import { Brand } from './Brand';

interface TopBarProps {
  /** The current account's name; null until accounts exist. */
  accountName: string | null;
  /**
   * Upgrade, account settings and the account menu, when someone is signed in; `compact` (below the md
   * breakpoint, where the side menu is a drawer too) folds them into the account menu.
   */
  actions: (compact: boolean) => ReactNode;
  menuOpen: boolean;
  onMenuClick: () => void;
}

export const TopBar = ({ accountName, actions, menuOpen, onMenuClick }: TopBarProps) => {
  const compact = useMediaQuery(useTheme().breakpoints.down('md'));
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        <IconButton
          edge="start"
          aria-label="Open menu"
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          onClick={onMenuClick}
          sx={{ display: { md: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
        <Brand />
        <Box sx={{ flexGrow: 1 }} />
        {accountName !== null && !compact && (
          <Typography component="span" variant="subtitle1" noWrap sx={{ fontWeight: 600, minWidth: 0 }} data-testid="account-name">
            {accountName}
          </Typography>
        )}
        <Box sx={{ display: 'flex', alignItems: 'center', flexShrink: 0 }}>
          {/* Shows itself only inside an account, where the browser and the server can push. */}
          <WebPushButton />
          {/* Shows itself only to those who may read the account's reports. */}
          <DeliveryHealthButton />
          {actions(compact)}
        </Box>
      </Toolbar>
    </AppBar>
  );
};
