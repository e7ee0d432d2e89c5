import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { UnreadBadge } from '../../features/conversations/inbox/UnreadBadge';
import { HeldBadge } from '../../features/messaging/approvals/HeldBadge';
import type { MenuActionId, MenuEntry, MenuGroup, MenuLink } from './menuEntries';
import { menuIcons } from './menuIcons';

interface SideMenuProps {
  entries: MenuEntry[];
  onNavigate?: () => void;
  /** Runs a group's action (for example New List opens its dialog). */
  onAction?: (id: MenuActionId) => void;
}

const isWithin = (pathname: string, to: string): boolean => pathname === to || pathname.startsWith(`${to}/`);

const LinkItem = ({ entry, nested, onNavigate }: { entry: MenuLink; nested: boolean; onNavigate?: () => void }) => {
  const Icon = entry.icon === undefined ? undefined : menuIcons[entry.icon];
  return (
    <ListItemButton component={NavLink} to={entry.to} onClick={onNavigate} sx={nested ? { pl: 7 } : undefined}>
      {Icon && (
        <ListItemIcon sx={{ minWidth: 40 }}>
          <Icon />
        </ListItemIcon>
      )}
      <ListItemText primary={entry.label} />
      {entry.badge === 'unread' && <UnreadBadge />}
      {entry.badge === 'held' && <HeldBadge />}
    </ListItemButton>
  );
};

const GroupItem = ({
  entry,
  onNavigate,
  onAction,
}: {
  entry: MenuGroup;
  onNavigate?: () => void;
  onAction?: (id: MenuActionId) => void;
}) => {
  const { pathname } = useLocation();
  const holdsCurrent = entry.children.some((child) => isWithin(pathname, child.to));
  const [open, setOpen] = useState(holdsCurrent);
  const Icon = menuIcons[entry.icon];
  const listId = `menu-${entry.id}`;
  return (
    <>
      <ListItemButton
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => {
          setOpen(!open);
        }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>
          <Icon />
        </ListItemIcon>
        <ListItemText primary={entry.label} />
        {/* Closed, the group tells what waits inside it. */}
        {!open && entry.children.some((child) => child.badge === 'held') && <HeldBadge />}
        {open ? <ExpandLess /> : <ExpandMore />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List id={listId} disablePadding dense>
          {entry.children.map((child) => (
            <LinkItem key={child.id} entry={child} nested onNavigate={onNavigate} />
          ))}
          {entry.action !== undefined && onAction !== undefined && (
            <ListItemButton
              sx={{ pl: 7 }}
              onClick={() => {
                if (entry.action) onAction(entry.action.id);
                onNavigate?.();
              }}
            >
              <ListItemText primary={entry.action.label} slotProps={{ primary: { color: 'primary' } }} />
            </ListItemButton>
          )}
        </List>
      </Collapse>
    </>
  );
};

export const SideMenu = ({ entries, onNavigate, onAction }: SideMenuProps) => (
  <List component="nav" aria-label="Main menu" sx={{ py: 1 }}>
    {entries.map((entry) =>
      entry.kind === 'group' ? (
        <GroupItem key={entry.id} entry={entry} onNavigate={onNavigate} onAction={onAction} />
      ) : (
        <LinkItem key={entry.id} entry={entry} nested={false} onNavigate={onNavigate} />
      ),
    )}
  </List>
);
