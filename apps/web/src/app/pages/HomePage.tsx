import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import type { PageProps } from '../pageProps';

interface Tile {
  label: string;
  to: string;
  Icon: typeof ContactsOutlined;
}

const tiles: readonly Tile[] = [
  { label: 'Contacts', to: '/contacts', Icon: ContactsOutlined },
  { label: 'Conversations', to: '/conversations', Icon: ForumOutlined },
  { label: 'Campaigns', to: '/campaigns', Icon: CampaignOutlined },
  { label: 'Templates', to: '/templates', Icon: DescriptionOutlined },
];

export const HomePage = ({ title }: PageProps) => (
  <>
    <Typography variant="h1" gutterBottom>
      {title}
    </Typography>
    <Box
      component="nav"
      aria-label="Areas"
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } }}
    >
      {tiles.map(({ label, to, Icon }) => (
        <Card key={to}>
          <CardActionArea component={Link} to={to} sx={{ height: '100%' }}>
            <CardContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5, py: 5 }}>
              <Icon color="primary" sx={{ fontSize: 48 }} aria-hidden />
              <Typography variant="h2" component="span">
                {label}
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </Box>
  </>
);
