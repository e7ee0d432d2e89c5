import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

export const NotFoundPage = () => (
  <>
    <Typography variant="h1" gutterBottom>
      Oops! The Page you requested was not found!
    </Typography>
    <Button component={Link} to="/" variant="contained">
      Go to Home
    </Button>
  </>
);
