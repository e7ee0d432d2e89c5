import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { LIST_SAVE_FAILED_MESSAGE, type ListMember, type ListMembershipStatus, type MemberConsentStatus } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { RemoveDialog } from '../../components/RemoveDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { TABLE_PAGE_SIZES } from '../../components/PageTable';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { listMembersQueryKey, listQueryKey, listsQueryKey, useListMembers } from './queries';

export const memberStatusLabels: Record<ListMembershipStatus, string> = {
  subscribed: 'Subscribed',
  optedIn: 'Opted In',
  optedOut: 'Opted Out',
};

const statusColor = (status: ListMembershipStatus): 'default' | 'success' | 'warning' => {
  switch (status) {
    case 'subscribed':
      return 'default';
    case 'optedIn':
      return 'success';
    case 'optedOut':
      return 'warning';
  }
};

const dateTime = (iso: string | null): string =>
  iso === null ? '' : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface MembersGridProps {
  accountId: string;
  listId: string;
  listName: string;
  canWrite: boolean;
}

/** The list's members, paged on the server, with their status and opt-in and opt-out dates. */
export const MembersGrid = ({ accountId, listId, listName, canWrite }: MembersGridProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [paging, setPaging] = useState<GridPaginationModel>({ page: 0, pageSize: TABLE_PAGE_SIZES[0] ?? 10 });
  const members = useListMembers(accountId, listId, paging);
  const [removing, setRemoving] = useState<ListMember | null>(null);
  const display = usePhoneDisplay();
  const nameOf = (m: ListMember): string => display.name(m.contact);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: listMembersQueryKey(accountId, listId) }),
      queryClient.invalidateQueries({ queryKey: listQueryKey(accountId, listId), exact: true }),
      queryClient.invalidateQueries({ queryKey: listsQueryKey(accountId), exact: true }),
    ]);
  const consent = useMutation({
    mutationFn: ({ member, status }: { member: ListMember; status: MemberConsentStatus }) =>
      api.put(`/v1/accounts/${accountId}/lists/${listId}/contacts/${member.contactId}`, { status }),
    onSuccess: async (_answer, { member, status }) => {
      await refresh();
      snackbar.show(`${nameOf(member)} ${status === 'optedIn' ? 'opted in to' : 'opted out of'} ${listName}`);
    },
    onError: (error) => {
      snackbar.show(`${LIST_SAVE_FAILED_MESSAGE}: ${errorMessage(error)}`);
    },
  });
  const remove = useMutation({
    mutationFn: (member: ListMember) => api.delete(`/v1/accounts/${accountId}/lists/${listId}/contacts/${member.contactId}`),
    onSuccess: async () => {
      await refresh();
      snackbar.show(`Removed from ${listName}`);
      setRemoving(null);
    },
  });

  // mutate and reset are stable across renders, so the columns are built once per permission.
  const { mutate: changeConsent } = consent;
  const { reset: resetRemove } = remove;
  const columns = useMemo<GridColDef<ListMember>[]>(() => {
    const base: GridColDef<ListMember>[] = [
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 150, sortable: false, valueGetter: (_v, row) => `${row.contact.firstName} ${row.contact.lastName}`.trim() },
      { field: 'mobile', headerName: 'Mobile', minWidth: 130, sortable: false, valueGetter: (_v, row) => display.phone(row.contact.mobile.number) },
      { field: 'email', headerName: 'Email', flex: 1, minWidth: 160, sortable: false, valueGetter: (_v, row) => row.contact.email ?? '' },
      {
        field: 'status',
        headerName: 'Status',
        minWidth: 110,
        sortable: false,
        renderCell: ({ row }) => <Chip size="small" variant="outlined" label={memberStatusLabels[row.status]} color={statusColor(row.status)} />,
      },
      { field: 'optIn', headerName: 'Opted In', minWidth: 150, sortable: false, valueGetter: (_v, row) => dateTime(row.optIn) },
      { field: 'optOut', headerName: 'Opted Out', minWidth: 150, sortable: false, valueGetter: (_v, row) => dateTime(row.optOut) },
      { field: 'consentSource', headerName: 'Source', minWidth: 110, sortable: false, valueGetter: (_v, row) => row.consentSource ?? '' },
    ];
    if (!canWrite) return base;
    return [
      ...base,
      {
        field: 'actions',
        headerName: 'Actions',
        minWidth: 130,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: ({ row }) => {
          const who = display.name(row.contact);
          const next: MemberConsentStatus = row.status === 'optedIn' ? 'optedOut' : 'optedIn';
          return (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
              <Button
                size="small"
                aria-label={`${next === 'optedIn' ? 'Opt in' : 'Opt out'} ${who}`}
                onClick={() => { changeConsent({ member: row, status: next }); }}
              >
                {next === 'optedIn' ? 'Opt In' : 'Opt Out'}
              </Button>
              <IconButton size="small" aria-label={`Remove ${who} from the list`} onClick={() => { resetRemove(); setRemoving(row); }}>
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Box>
          );
        },
      },
    ];
  }, [canWrite, changeConsent, resetRemove, display]);

  return (
    <>
      {members.isError && <ErrorAlert message={errorMessage(members.error)} onRetry={() => void members.refetch()} />}
      <DataGrid
        aria-label={`Members of ${listName}`}
        rows={members.data?.data ?? []}
        columns={columns}
        rowCount={members.data?.pagination.totalCount ?? 0}
        loading={members.isFetching || consent.isPending}
        paginationMode="server"
        paginationModel={paging}
        onPaginationModelChange={setPaging}
        pageSizeOptions={TABLE_PAGE_SIZES}
        disableRowSelectionOnClick
        disableColumnFilter
        autoHeight
        // Where consent came from is there for whoever needs it (column menu), not in everyone's way.
        initialState={{ columns: { columnVisibilityModel: { consentSource: false } } }}
        localeText={{ noRowsLabel: 'No contacts on this list yet' }}
      />
      {removing !== null && (
        <RemoveDialog
          title="Remove from List"
          message={`Take ${nameOf(removing)} off ${listName}? The contact stays in the account.`}
          removal={remove}
          onConfirm={() => { remove.mutate(removing); }}
          onCancel={() => { setRemoving(null); }}
        />
      )}
    </>
  );
};
