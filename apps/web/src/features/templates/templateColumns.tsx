import LinkOutlined from '@mui/icons-material/LinkOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import type { Template, TemplateType } from '@parley/shared';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';

/** Where the public page of an OptIn template is. */
const optInPagePath = (id: string): string => `/v1/clients/optin/${id}`;

/** What a row's buttons do. */
export interface TemplateRowActions {
  edit: (template: Template) => void;
  remove: (template: Template) => void;
  /** Opens the web-hook links of a Web template. */
  link: (template: Template) => void;
}

/**
 * The columns of a type's table: OptIn adds its list, and the actions show what the user may do (an OptIn
 * template's sign-up page opens for everyone).
 */
export const templateColumns = (type: TemplateType, canWrite: boolean, actions: TemplateRowActions): GridColDef<Template>[] => {
  const cols: GridColDef<Template>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', height: '100%', minWidth: 0 }}>
          {row.private && (
            <Tooltip title="Private: seen only by its maker and administrators">
              <LockOutlined fontSize="small" color="action" aria-label="Private" />
            </Tooltip>
          )}
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {row.name}
          </Box>
        </Stack>
      ),
    },
    { field: 'template', headerName: 'Message', flex: 2, minWidth: 240, sortable: false },
    {
      field: 'media',
      headerName: 'Attachments',
      width: 120,
      type: 'number',
      valueGetter: (_value, row) => row.media.length,
    },
  ];
  if (type === 'OptIn') {
    cols.push({ field: 'optInList', headerName: 'List', flex: 1, minWidth: 140, valueGetter: (_value, row) => row.optInList?.name ?? '' });
  }
  cols.push({
    field: 'updated',
    headerName: 'Updated',
    width: 200,
    type: 'dateTime',
    valueGetter: (_value, row) => new Date(row.updated.at),
  });
  if (!canWrite && type !== 'OptIn') return cols;
  cols.push({
    field: 'actions',
    headerName: 'Actions',
    width: type === 'SMS' ? 110 : 140,
    sortable: false,
    filterable: false,
    disableColumnMenu: true,
    renderCell: ({ row }) => (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
        {type === 'OptIn' && (
          <Tooltip title="Open the sign-up page">
            <IconButton size="small" aria-label={`Open the sign-up page of ${row.name}`} href={optInPagePath(row.id)} target="_blank" rel="noopener">
              <OpenInNewOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {type === 'Web' && canWrite && (
          <Tooltip title="Web-hook links">
            <IconButton size="small" aria-label={`Web-hook links of ${row.name}`} onClick={() => { actions.link(row); }}>
              <LinkOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {canWrite && (
          <EditRemoveButtons
            editLabel={`Edit ${row.name}`}
            removeLabel={`Remove ${row.name}`}
            onEdit={() => { actions.edit(row); }}
            onRemove={() => { actions.remove(row); }}
          />
        )}
      </Box>
    ),
  });
  return cols;
};
