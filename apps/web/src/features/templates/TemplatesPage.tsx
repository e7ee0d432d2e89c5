import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { can, templatePathSegments, templateTypes, TEMPLATES_EMPTY_STATE, type Role, type Template, type TemplateType } from '@parley/shared';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { TemplateDialog } from './TemplateDialog';
import { useRemoveTemplate, useTemplates } from './queries';
import { WebhookLinksDialog } from './WebhookLinksDialog';
import { templateTypeOfPath } from './templatePaths';

/** Tables page by 10, with 10, 25 or 50 rows. */
const PAGE_SIZES = [10, 25, 50];

const intro: Record<TemplateType, string> = {
  SMS: 'Saved messages, chosen in the send box and in campaigns.',
  Web: "Messages an integration sends by calling the template's web-hook link.",
  OptIn: 'Public sign-up pages: whoever signs up joins the list and gets the message.',
};

/** Where the public page of an OptIn template is. */
const optInPagePath = (id: string): string => `/v1/clients/optin/${id}`;

type Editing = { template: Template | null } | null;

/**
 * /templates, /templates/sms, /templates/web and /templates/optin: the templates of one type, chosen by the
 * path segment (SMS at /templates). Add, edit and remove follow 'templates.write'.
 */
export const TemplatesPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const { pathname } = useLocation();
  const type = templateTypeOfPath(pathname);
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Tabs value={type} aria-label="Template types" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        {templateTypes.map((t) => (
          <Tab key={t} value={t} label={t} component={Link} to={`/templates/${templatePathSegments[t]}`} />
        ))}
      </Tabs>
      {/* A table per type, so paging and dialogs start afresh when the type changes. */}
      <TemplatesTable key={type} accountId={account.id} type={type} role={account.user.role} />
    </>
  );
};

const TemplatesTable = ({ accountId, type, role }: { accountId: string; type: TemplateType; role: Role }) => {
  const canWrite = can(role, 'templates.write');
  const snackbar = useSnackbar();
  const templates = useTemplates(accountId, type);
  const remove = useRemoveTemplate(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Template | null>(null);
  const [linking, setLinking] = useState<Template | null>(null);

  const { reset: resetRemove } = remove;
  const columns = useMemo<GridColDef<Template>[]>(() => {
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
              <IconButton size="small" aria-label={`Web-hook links of ${row.name}`} onClick={() => { setLinking(row); }}>
                <LinkOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {canWrite && (
            <>
              <IconButton size="small" aria-label={`Edit ${row.name}`} onClick={() => { setEditing({ template: row }); }}>
                <EditOutlined fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`Remove ${row.name}`}
                onClick={() => {
                  resetRemove();
                  setRemoving(row);
                }}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </>
          )}
        </Box>
      ),
    });
    return cols;
  }, [canWrite, type, resetRemove]);

  return (
    <>
      <Stack direction="row" sx={{ mb: 1.5, alignItems: 'center' }}>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          {intro[type]}
        </Typography>
        {canWrite && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => { setEditing({ template: null }); }}>
            Add Template
          </Button>
        )}
      </Stack>
      {templates.isError && <ErrorAlert message={errorMessage(templates.error)} onRetry={() => void templates.refetch()} />}
      <DataGrid
        aria-label={`${type} Templates`}
        rows={templates.data?.data ?? []}
        columns={columns}
        loading={templates.isPending}
        initialState={{ pagination: { paginationModel: { page: 0, pageSize: PAGE_SIZES[0] ?? 10 } } }}
        pageSizeOptions={PAGE_SIZES}
        disableRowSelectionOnClick
        disableColumnFilter
        autoHeight
        localeText={{ noRowsLabel: TEMPLATES_EMPTY_STATE }}
      />
      {editing !== null && (
        <TemplateDialog
          accountId={accountId}
          template={editing.template}
          type={type}
          onClose={() => {
            setEditing(null);
          }}
        />
      )}
      {linking !== null && (
        <WebhookLinksDialog
          accountId={accountId}
          template={linking}
          role={role}
          onClose={() => {
            setLinking(null);
          }}
        />
      )}
      {removing !== null && (
        <ConfirmDialog
          title="Remove Template"
          message={`Remove the template "${removing.name}"? Campaigns that use it keep their text.`}
          confirmLabel="Remove"
          pending={remove.isPending}
          error={remove.isError ? <ErrorAlert message={errorMessage(remove.error)} /> : undefined}
          onConfirm={() => {
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(null);
                snackbar.show('Template removed');
              },
            });
          }}
          onCancel={() => {
            setRemoving(null);
          }}
        />
      )}
    </>
  );
};
