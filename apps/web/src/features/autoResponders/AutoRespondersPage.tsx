import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import {
  AUTO_RESPONDERS_EMPTY_STATE,
  AUTO_RESPONDERS_TRIAL_MESSAGE,
  autoResponderKind,
  can,
  showsPaidPlanFeatures,
  type AutoResponder,
} from '@parley/shared';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { AutoResponderDialog } from './AutoResponderDialog';
import { useAutoResponders, useRemoveAutoResponder } from './queries';

/** Tables page by 10, with 10, 25 or 50 rows. */
const PAGE_SIZES = [10, 25, 50];

type Editing = { responder: AutoResponder | null } | null;

/** /autoresponders: the account's auto responders, in the order they are tried (oldest first). */
export const AutoRespondersPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {showsPaidPlanFeatures(account.plan.isTrial) ? (
        <AutoRespondersTable accountId={account.id} canWrite={can(account.user.role, 'autoResponders.write')} />
      ) : (
        // The menu hides the page on a trial plan; a direct link says why there is nothing here.
        <Typography color="text.secondary">{AUTO_RESPONDERS_TRIAL_MESSAGE}</Typography>
      )}
    </>
  );
};

const AutoRespondersTable = ({ accountId, canWrite }: { accountId: string; canWrite: boolean }) => {
  const snackbar = useSnackbar();
  const responders = useAutoResponders(accountId);
  const remove = useRemoveAutoResponder(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<AutoResponder | null>(null);

  const { reset: resetRemove } = remove;
  const columns = useMemo<GridColDef<AutoResponder>[]>(() => {
    const base: GridColDef<AutoResponder>[] = [
      {
        field: 'match',
        headerName: 'Match',
        flex: 1,
        minWidth: 200,
        // The rows stay in the order responders are tried in.
        sortable: false,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%', minWidth: 0 }}>
            <Chip size="small" variant="outlined" label={autoResponderKind(row.advanced)} color={row.advanced ? 'secondary' : 'default'} />
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', fontFamily: row.advanced ? 'monospace' : undefined }}>
              {row.match}
            </Box>
          </Stack>
        ),
      },
      { field: 'response', headerName: 'Response', flex: 2, minWidth: 240, sortable: false },
    ];
    if (!canWrite) return base;
    return [
      ...base,
      {
        field: 'actions',
        headerName: 'Actions',
        width: 110,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: ({ row }) => (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
            <IconButton size="small" aria-label={`Edit the auto responder for ${row.match}`} onClick={() => { setEditing({ responder: row }); }}>
              <EditOutlined fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`Remove the auto responder for ${row.match}`}
              onClick={() => {
                resetRemove();
                setRemoving(row);
              }}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Box>
        ),
      },
    ];
  }, [canWrite, resetRemove]);

  return (
    <>
      <Stack direction="row" sx={{ mb: 1.5, alignItems: 'center' }}>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          An incoming message gets the response of the first auto responder that matches it, from the top.
        </Typography>
        {canWrite && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => { setEditing({ responder: null }); }}>
            Add Auto Responder
          </Button>
        )}
      </Stack>
      {responders.isError && <ErrorAlert message={errorMessage(responders.error)} onRetry={() => void responders.refetch()} />}
      <DataGrid
        aria-label="Auto Responders"
        rows={responders.data?.data ?? []}
        columns={columns}
        loading={responders.isPending}
        initialState={{ pagination: { paginationModel: { page: 0, pageSize: PAGE_SIZES[0] ?? 10 } } }}
        pageSizeOptions={PAGE_SIZES}
        disableRowSelectionOnClick
        disableColumnFilter
        autoHeight
        localeText={{ noRowsLabel: AUTO_RESPONDERS_EMPTY_STATE }}
      />
      {editing !== null && (
        <AutoResponderDialog
          accountId={accountId}
          responder={editing.responder}
          onClose={() => {
            setEditing(null);
          }}
        />
      )}
      {removing !== null && (
        <ConfirmDialog
          title="Remove Auto Responder"
          message={`Remove the auto responder for "${removing.match}"? Incoming messages will no longer get its response.`}
          confirmLabel="Remove"
          pending={remove.isPending}
          error={remove.isError ? <ErrorAlert message={errorMessage(remove.error)} /> : undefined}
          onConfirm={() => {
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(null);
                snackbar.show('Auto responder removed');
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
