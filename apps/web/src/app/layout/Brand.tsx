import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { brand } from '../brand';

export const Brand = () => (
  <Box
    component={Link}
    to="/"
    sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.primary', textDecoration: 'none' }}
  >
    <Box component="img" src="/favicon.svg" alt="" sx={{ width: 28, height: 28 }} />
    <Typography component="span" variant="h6" sx={{ fontWeight: 700 }}>
      {brand.name}
    </Typography>
  </Box>
);
