import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useNavigate } from 'react-router';

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
      <MenuItem onClick={choose(() => void navigate('/accounts'))}>Switch Account</MenuItem>
      <MenuItem onClick={choose(logout)}>Logout</MenuItem>
    </Menu>
  );
};
