import LinearProgress from '@mui/material/LinearProgress';

/** Shown while a page's code loads. */
export const PageFallback = () => <LinearProgress aria-label="Loading page" sx={{ position: 'absolute', inset: '0 0 auto 0' }} />;
