import AddCommentOutlined from '@mui/icons-material/AddCommentOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { QuickAction } from '@parley/shared';
import { Link } from 'react-router';
import { sendMessageTarget } from '../../features/messaging/SendMessageLauncher';
import type { MenuQuickAction } from './menuEntries';

/**
 * Each action leads to the page of its area; `?new=1` opens that page's create dialog where it has one. Send
 * Message opens its dialog over the current page.
 */
export const quickActionTargets: Record<QuickAction, string> = {
  sendMessage: sendMessageTarget,
  createContact: '/contacts?new=1',
  createCampaign: '/campaigns',
};

const icons: Record<QuickAction, typeof CampaignOutlined> = {
  sendMessage: AddCommentOutlined,
  createContact: PersonAddAltOutlined,
  createCampaign: CampaignOutlined,
};

export const QuickActions = ({ actions, onNavigate }: { actions: MenuQuickAction[]; onNavigate?: () => void }) => {
  if (actions.length === 0) return null;
  return (
    <Stack component="section" aria-label="Quick actions" spacing={1} sx={{ px: 2, pt: 2 }}>
      {actions.map((action) => {
        const Icon = icons[action.id];
        return (
          <Button
            key={action.id}
            component={Link}
            to={quickActionTargets[action.id]}
            onClick={onNavigate}
            variant="outlined"
            size="small"
            startIcon={<Icon />}
            sx={{ justifyContent: 'flex-start' }}
          >
            {action.label}
          </Button>
        );
      })}
    </Stack>
  );
};
