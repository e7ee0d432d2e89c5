import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ListRecord } from '@parley/shared';
import { OverflowMenu, type OverflowAction } from './OverflowMenu';

/** Below this width the search and list filter share the row with Add, and the rest go behind a menu. */
export const CONTACTS_TOOLBAR_COMPACT_BELOW = 840;

interface ContactsToolbarProps {
  compact: boolean;
  search: string;
  onSearch: (text: string) => void;
  lists: readonly ListRecord[];
  listId: string;
  onListId: (id: string) => void;
  downloading: boolean;
  onDownload: () => void;
  /** Absent when the role may not upload or add. */
  onUpload?: () => void;
  onAdd?: () => void;
}

/**
 * The contacts page's toolbar: Search, the List filter (when the account has lists), Download CSV, Upload
 * and Add. It never changes with the selection (the selection's actions sit in the table's own toolbar),
 * so it keeps its one line; on a narrow page Download CSV and Upload move into a 'More actions' menu.
 */
export const ContactsToolbar = ({ compact, search, onSearch, lists, listId, onListId, downloading, onDownload, onUpload, onAdd }: ContactsToolbarProps) => {
  const searchField = (
    <TextField
      label="Search"
      size="small"
      type="search"
      value={search}
      onChange={(event) => {
        onSearch(event.target.value);
      }}
      sx={compact ? { flex: 1, minWidth: 0 } : { width: 240 }}
    />
  );
  const listFilter = lists.length > 0 && (
    <TextField
      select
      label="List"
      size="small"
      value={listId}
      onChange={(event) => {
        onListId(event.target.value);
      }}
      sx={compact ? { width: '100%' } : { width: 200 }}
    >
      <MenuItem value="">All Contacts</MenuItem>
      {lists.map((list) => (
        <MenuItem key={list.id} value={list.id}>
          {list.name}
        </MenuItem>
      ))}
    </TextField>
  );
  const add = onAdd !== undefined && (
    <Button variant="contained" startIcon={<PersonAddAltOutlined />} onClick={onAdd} sx={{ flexShrink: 0 }}>
      Add
    </Button>
  );

  if (compact) {
    const more: OverflowAction[] = [
      { label: 'Download CSV', icon: <FileDownloadOutlined fontSize="small" />, onClick: onDownload, disabled: downloading },
      ...(onUpload === undefined ? [] : [{ label: 'Upload', icon: <FileUploadOutlined fontSize="small" />, onClick: onUpload }]),
    ];
    return (
      <Stack spacing={1.5} sx={{ mb: 1.5 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {searchField}
          {add}
          <OverflowMenu label="More actions" actions={more} />
        </Stack>
        {listFilter}
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={1.5} sx={{ mb: 1.5, alignItems: 'center' }}>
      {searchField}
      {listFilter}
      <Box sx={{ flex: 1 }} />
      <Button variant="outlined" startIcon={<FileDownloadOutlined />} loading={downloading} onClick={onDownload} sx={{ flexShrink: 0 }}>
        Download CSV
      </Button>
      {onUpload !== undefined && (
        <Button variant="outlined" startIcon={<FileUploadOutlined />} onClick={onUpload} sx={{ flexShrink: 0 }}>
          Upload
        </Button>
      )}
      {add}
    </Stack>
  );
};
