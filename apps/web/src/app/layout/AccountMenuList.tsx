import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useNavigate } from 'react-router';

interface AccountMenuListProps {
  id: string;
  anchor: HTMLElement;
  logout: () => void;
  onProfile: () => void;
  onClose: () => void;
}

export const AccountMenuList = ({ id, anchor, logout, onProfile, onClose }: AccountMenuListProps) => {
  const navigate = useNavigate();
  const choose = (action: () => void) => () => {
    onClose();
    action();
  };
  return (
    <Menu id={id} anchorEl={anchor} open onClose={onClose}>
      <MenuItem onClick={choose(onProfile)}>Profile</MenuItem>
      <MenuItem onClick={choose(() => void navigate('/accounts'))}>Switch Account</MenuItem>
      <MenuItem onClick={choose(logout)}>Logout</MenuItem>
    </Menu>
  );
};
