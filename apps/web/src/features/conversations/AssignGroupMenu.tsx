import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import Check from '@mui/icons-material/Check';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import type { Conversation, Group } from '@parley/shared';
import { useId, useState, type MouseEvent } from 'react';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { useAssignGroup } from './inbox/queries';

interface AssignGroupMenuProps {
  accountId: string;
  conversation: Conversation;
  groups: readonly Group[];
  /** A phone: an icon with its name as a tooltip. */
  compact?: boolean;
}

/** 'Assign group to conversation': the account's groups, or none. Shown only when groups exist. */
export const AssignGroupMenu = ({ accountId, conversation, groups, compact = false }: AssignGroupMenuProps) => {
  const menuId = useId();
  const snackbar = useSnackbar();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const assign = useAssignGroup(accountId, conversation.id);
  const current = conversation.group?.id ?? null;

  const choose = (group: Pick<Group, 'id' | 'name'> | null): void => {
    setAnchor(null);
    if ((group?.id ?? null) === current) return;
    assign.mutate(
      { group: group === null ? null : { id: group.id } },
      {
        onSuccess: () => {
          snackbar.show(group === null ? 'The conversation has no group now' : `Assigned to ${group.name}`);
        },
        onError: (error) => {
          snackbar.show(errorMessage(error));
        },
      },
    );
  };

  const item = (group: Pick<Group, 'id' | 'name'> | null) => {
    const chosen = (group?.id ?? null) === current;
    return (
      <MenuItem
        key={group?.id ?? 'none'}
        selected={chosen}
        onClick={() => {
          choose(group);
        }}
      >
        <ListItemIcon>{chosen && <Check fontSize="small" />}</ListItemIcon>
        <ListItemText>{group?.name ?? 'No group'}</ListItemText>
      </MenuItem>
    );
  };

  const opener = {
    loading: assign.isPending,
    'aria-haspopup': 'menu',
    'aria-controls': anchor === null ? undefined : menuId,
    'aria-expanded': anchor !== null,
    onClick: (event: MouseEvent<HTMLElement>) => {
      setAnchor(event.currentTarget);
    },
  } as const;

  return (
    <>
      {compact ? (
        <Tooltip title="Assign Group">
          <IconButton aria-label="Assign Group" {...opener}>
            <GroupsOutlined />
          </IconButton>
        </Tooltip>
      ) : (
        <Button variant="outlined" startIcon={<GroupsOutlined />} {...opener}>
          Assign Group
        </Button>
      )}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => {
          setAnchor(null);
        }}
      >
        {item(null)}
        {groups.map((group) => item(group))}
      </Menu>
    </>
  );
};
