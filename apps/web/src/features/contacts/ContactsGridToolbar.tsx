import CloseOutlined from '@mui/icons-material/CloseOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ColumnsPanelTrigger, FilterPanelTrigger, GridFilterListIcon, GridViewColumnIcon, Toolbar, ToolbarButton } from '@mui/x-data-grid';
import { useContactSelection, type ContactSelection } from './contactSelection';
import { OverflowMenu, type OverflowAction } from './OverflowMenu';

const SelectionActions = ({ selection }: { selection: ContactSelection }) => {
  const { count, compact, onAddToList, onSendMessage, onCheckNumberTypes, onDelete, onClear } = selection;
  const more: OverflowAction[] = [
    ...(onAddToList === undefined ? [] : [{ label: 'Add to List', icon: <PlaylistAddOutlined fontSize="small" />, onClick: onAddToList }]),
    ...(onCheckNumberTypes === undefined ? [] : [{ label: 'Check Number Types', icon: <FactCheckOutlined fontSize="small" />, onClick: onCheckNumberTypes }]),
    ...(onDelete === undefined ? [] : [{ label: 'Delete', icon: <DeleteOutlined fontSize="small" />, onClick: onDelete, color: 'error' as const }]),
  ];
  return (
    <Stack direction="row" spacing={compact ? 0.5 : 1} sx={{ alignItems: 'center', minWidth: 0, flexWrap: 'nowrap' }} role="group" aria-label="Selected contacts">
      <Tooltip title="Clear selection">
        <IconButton size="small" aria-label="Clear selection" onClick={onClear}>
          <CloseOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap', pr: 0.5 }} data-testid="selected-count">
        {`${String(count)} selected`}
      </Typography>
      {compact ? (
        <>
          {onSendMessage !== undefined && (
            <Tooltip title="Send Message">
              <IconButton aria-label="Send Message" color="primary" onClick={onSendMessage}>
                <SendOutlined />
              </IconButton>
            </Tooltip>
          )}
          <OverflowMenu label="More selection actions" actions={more} />
        </>
      ) : (
        <>
          {onAddToList !== undefined && (
            <Button size="small" variant="outlined" startIcon={<PlaylistAddOutlined />} onClick={onAddToList} sx={{ flexShrink: 0 }}>
              Add to List
            </Button>
          )}
          {onSendMessage !== undefined && (
            <Button size="small" variant="outlined" startIcon={<SendOutlined />} onClick={onSendMessage} sx={{ flexShrink: 0 }}>
              Send Message
            </Button>
          )}
          {onCheckNumberTypes !== undefined && (
            <Button size="small" variant="outlined" startIcon={<FactCheckOutlined />} onClick={onCheckNumberTypes} sx={{ flexShrink: 0 }}>
              Check Number Types
            </Button>
          )}
          {onDelete !== undefined && (
            <Button size="small" variant="outlined" color="error" startIcon={<DeleteOutlined />} onClick={onDelete} sx={{ flexShrink: 0 }}>
              Delete
            </Button>
          )}
        </>
      )}
    </Stack>
  );
};

/**
 * The table's own toolbar: with contacts selected, how many and what to do with them (Add to List, Send
 * Message, Delete) on the left, always on one line; the column chooser and the filters on the right.
 */
export const ContactsGridToolbar = () => {
  const selection = useContactSelection();
  return (
    <Toolbar style={{ justifyContent: 'flex-start', gap: 4, flexWrap: 'nowrap' }}>
      {selection !== null && selection.count > 0 && <SelectionActions selection={selection} />}
      <Box sx={{ flex: 1 }} />
      <Tooltip title="Columns">
        <ColumnsPanelTrigger render={<ToolbarButton />}>
          <GridViewColumnIcon fontSize="small" />
        </ColumnsPanelTrigger>
      </Tooltip>
      <Tooltip title="Filters">
        <FilterPanelTrigger
          render={(props, state) => (
            <ToolbarButton {...props} color={state.filterCount > 0 ? 'primary' : 'default'}>
              <Badge badgeContent={state.filterCount} color="primary" variant="dot">
                <GridFilterListIcon fontSize="small" />
              </Badge>
            </ToolbarButton>
          )}
        />
      </Tooltip>
    </Toolbar>
  );
};
