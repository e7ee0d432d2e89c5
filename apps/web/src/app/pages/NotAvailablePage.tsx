import Typography from '@mui/material/Typography';
import type { PageProps } from '../pageProps';

/** The page of an area that is not built yet: its title and nothing made up. */
export const NotAvailablePage = ({ title }: PageProps) => (
  <>
    <Typography variant="h1" gutterBottom>
      {title}
    </Typography>
    <Typography color="text.secondary">Not available yet</Typography>
  </>
);
