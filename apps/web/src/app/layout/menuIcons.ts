import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import PhoneIphoneOutlined from '@mui/icons-material/PhoneIphoneOutlined';
import QuickreplyOutlined from '@mui/icons-material/QuickreplyOutlined';
import SwitchAccountOutlined from '@mui/icons-material/SwitchAccountOutlined';
import type { MenuIcon } from './menuEntries';

export const menuIcons: Record<MenuIcon, typeof ContactsOutlined> = {
  accounts: SwitchAccountOutlined,
  contacts: ContactsOutlined,
  campaigns: CampaignOutlined,
  conversations: ForumOutlined,
  templates: DescriptionOutlined,
  integrations: ExtensionOutlined,
  notifications: NotificationsOutlined,
  lists: ListAltOutlined,
  links: LinkOutlined,
  customDomains: LanguageOutlined,
  autoResponders: QuickreplyOutlined,
  admin: AdminPanelSettingsOutlined,
  simulator: PhoneIphoneOutlined,
  logout: LogoutOutlined,
};
