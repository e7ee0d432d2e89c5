import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';

export const VERIFIED_REDIRECT_MS = 5000;

/** /verified: a fixed confirmation message, then home after 5 seconds. */
export const VerifiedPage = () => {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => void navigate('/'), VERIFIED_REDIRECT_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [navigate]);
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', py: 6, textAlign: 'center' }}>
      <Typography>
        Thank you. Your account has now been verified. You will be shortly redirected to the login page. If not{' '}
        <Link component={RouterLink} to="/">
          click here
        </Link>
      </Typography>
    </Box>
  );
};
