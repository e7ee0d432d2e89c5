import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useNavigate } from 'react-router';
import { useConfig } from '../configContext';

/** An entry the compact top bar moves into this menu (Upgrade, Account Settings). */
export interface AccountMenuAction {
  label: string;
  secondary?: string;
  onClick: () => void;
}

interface AccountMenuListProps {
  id: string;
  anchor: HTMLElement;
  logout: () => void;
  onProfile: () => void;
  /** Opens the Groups list; absent when the entry is not shown. */
  onGroups?: () => void;
  /** The account's name, heading the menu when the top bar has no room to show it. */
  accountName?: string;
  /** Entries before Profile: what the top bar shows beside the menu when there is room. */
  leading?: readonly AccountMenuAction[];
  onClose: () => void;
}

export const AccountMenuList = ({ id, anchor, logout, onProfile, onGroups, accountName, leading = [], onClose }: AccountMenuListProps) => {
  const navigate = useNavigate();
  // The operator's help centre (HELP_CENTER_URL, an http(s) URL the server checked); no entry without one.
  const { helpCenterUrl } = useConfig();
  const choose = (action: () => void) => () => {
    onClose();
    action();
  };
  return (
    <Menu id={id} anchorEl={anchor} open onClose={onClose}>
      {accountName !== undefined && (
        <ListSubheader sx={{ lineHeight: 2.5, fontWeight: 600, color: 'text.primary' }} data-testid="account-menu-name">
          {accountName}
        </ListSubheader>
      )}
      {leading.map((item) => (
        <MenuItem key={item.label} onClick={choose(item.onClick)}>
          <ListItemText primary={item.label} secondary={item.secondary} />
        </MenuItem>
      ))}
      <MenuItem onClick={choose(onProfile)}>Profile</MenuItem>
      {onGroups !== undefined && <MenuItem onClick={choose(onGroups)}>Groups</MenuItem>}
      {helpCenterUrl !== null && (
        <MenuItem component="a" href={helpCenterUrl} target="_blank" rel="noopener noreferrer" onClick={onClose}>
          Help Centre
        </MenuItem>
      )}
      <MenuItem onClick={choose(() => void navigate('/featurerequests'))}>Feature Requests</MenuItem>
      <MenuItem onClick={choose(() => void navigate('/accounts'))}>Switch Account</MenuItem>
      <MenuItem onClick={choose(logout)}>Logout</MenuItem>
    </Menu>
  );
};
