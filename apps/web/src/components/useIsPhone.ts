import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/** A phone-sized screen (below the sm breakpoint, 600 px): one column, icons for labels, full-screen dialogs. */
export const useIsPhone = (): boolean => useMediaQuery(useTheme().breakpoints.down('sm'));
