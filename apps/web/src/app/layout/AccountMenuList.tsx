import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useNavigate } from 'react-router';

interface AccountMenuListProps {
  id: string;
  anchor: HTMLElement;
  logout: () => void;
  onProfile: () => void;
  /** Opens the Groups list; absent when the entry is not shown. */
  onGroups?: () => void;
  onClose: () => void;
}

export const AccountMenuList = ({ id, anchor, logout, onProfile, onGroups, onClose }: AccountMenuListProps) => {
  const navigate = useNavigate();
  const choose = (action: () => void) => () => {
    onClose();
    action();
  };
  return (
    <Menu id={id} anchorEl={anchor} open onClose={onClose}>
      <MenuItem onClick={choose(onProfile)}>Profile</MenuItem>
      {onGroups !== undefined && <MenuItem onClick={choose(onGroups)}>Groups</MenuItem>}
      <MenuItem onClick={choose(() => void navigate('/accounts'))}>Switch Account</MenuItem>
      <MenuItem onClick={choose(logout)}>Logout</MenuItem>
    </Menu>
  );
};
