import { createTheme } from '@mui/material/styles';
import { brand } from './brand';

export const drawerWidth = 256;

export const theme = createTheme({
  palette: {
    primary: { main: brand.primary },
    secondary: { main: '#0f7b6c' },
    background: { default: brand.background, paper: '#ffffff' },
    text: { primary: '#1b2430', secondary: '#4f5b6b' },
    divider: '#e3e7ee',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    h1: { fontSize: '1.75rem', fontWeight: 600 },
    h2: { fontSize: '1.375rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        // People who ask their system for less motion get none: no sliding, fading or spinning (docs/decisions.md).
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'inherit' },
      styleOverrides: { root: { borderBottom: '1px solid #e3e7ee', backgroundColor: '#ffffff' } },
    },
    MuiDrawer: {
      styleOverrides: { paper: { borderRight: '1px solid #e3e7ee' } },
    },
    MuiListItemButton: {
      styleOverrides: {
        root: {
          borderRadius: 8,
          margin: '2px 8px',
          '&.active': { backgroundColor: 'rgba(36, 87, 197, 0.1)', color: brand.primary },
          '&.active .MuiListItemIcon-root': { color: brand.primary },
        },
      },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
    },
  },
});
