import BlockOutlined from '@mui/icons-material/BlockOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState, type SyntheticEvent } from 'react';
import type { ContactRowAction, ContactRowActionId } from './contactRowActions';

const icons: Record<ContactRowActionId, typeof EditOutlined> = {
  edit: EditOutlined,
  sendMessage: SendOutlined,
  call: PhoneOutlined,
  block: BlockOutlined,
  remove: DeleteOutlined,
};

interface ContactRowMenuProps {
  /** How the contact is named, for the button's accessible name ('Actions for Ada Lovelace'). */
  name: string;
  actions: readonly ContactRowAction[];
  onAction: (id: ContactRowActionId) => void;
}

/** A row's kebab: the contact's actions in a menu. Clicks stay here (the row itself opens the contact). */
export const ContactRowMenu = ({ name, actions, onAction }: ContactRowMenuProps) => {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const stop = (event: SyntheticEvent) => {
    event.stopPropagation();
  };
  if (actions.length === 0) return null;
  return (
    <>
      <IconButton
        size="small"
        aria-label={`Actions for ${name}`}
        aria-haspopup="menu"
        aria-controls={anchor === null ? undefined : menuId}
        aria-expanded={anchor !== null}
        onClick={(event) => {
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
        // The grid would take the keys for its own navigation.
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
        }}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      {anchor !== null && (
        <Menu
          id={menuId}
          anchorEl={anchor}
          open
          onClose={() => {
            setAnchor(null);
          }}
          // The menu renders in a portal, yet its events bubble through the row in React's tree.
          onClick={stop}
          onMouseDown={stop}
          onKeyDown={stop}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          {actions.map((action) => {
            const Icon = icons[action.id];
            return (
              <MenuItem
                key={action.id}
                disabled={action.disabled}
                sx={action.id === 'remove' ? { color: 'error.main' } : undefined}
                onClick={() => {
                  setAnchor(null);
                  onAction(action.id);
                }}
              >
                <ListItemIcon sx={action.id === 'remove' ? { color: 'error.main' } : undefined}>
                  <Icon fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={action.label} secondary={action.hint} />
              </MenuItem>
            );
          })}
        </Menu>
      )}
    </>
  );
};
