import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridRowId, type GridRowSelectionModel } from '@mui/x-data-grid';
import type { HeldMessage } from '@parley/shared';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { TABLE_PAGE_SIZES } from '../../../components/PageTable';
import { useSnackbar } from '../../../components/snackbarContext';
import { usePhoneDisplay, type PhoneDisplay } from '../../../session/usePhoneDisplay';
import { goesAt, messagesCount, useApproveHeld, useHeldMessages } from './queries';

const noSelection = (): GridRowSelectionModel => ({ type: 'include', ids: new Set<GridRowId>() });

/** 'Ada Lovelace ((415) 555-0101)', or the number alone for a contact without a name. */
const recipientOf = (m: HeldMessage, display: PhoneDisplay): string => {
  const name = display.name(m.contact);
  const number = display.phone(m.contact.mobile);
  return name === number ? number : `${name} (${number})`;
};

const columnsFor = (display: PhoneDisplay): GridColDef<HeldMessage>[] => [
  { field: 'recipient', headerName: 'Recipient', flex: 1, minWidth: 180, sortable: false, valueGetter: (_v, row) => recipientOf(row, display) },
  { field: 'message', headerName: 'Message', flex: 2, minWidth: 220, sortable: false },
  {
    field: 'sendAfter',
    headerName: 'Will Be Sent',
    flex: 1,
    minWidth: 220,
    sortable: false,
    valueGetter: (_v, row) => goesAt(row.sendAfter, row.timeZone),
  },
];

interface AcceptableHoursApprovalsProps {
  accountId: string;
  canApprove: boolean;
}

/**
 * Messages waiting for their recipients' acceptable hours (quiet hours), the soonest to go first.
 * Administrators may send them now: those selected, or all of them when none is selected.
 */
export const AcceptableHoursApprovals = ({ accountId, canApprove }: AcceptableHoursApprovalsProps) => {
  const snackbar = useSnackbar();
  const display = usePhoneDisplay();
  const columns = useMemo(() => columnsFor(display), [display]);
  const [paging, setPaging] = useState<GridPaginationModel>({ page: 0, pageSize: TABLE_PAGE_SIZES[0] ?? 10 });
  const [selection, setSelection] = useState<GridRowSelectionModel>(noSelection);
  const [confirming, setConfirming] = useState(false);
  const held = useHeldMessages(accountId, paging);
  const total = held.data?.pagination.totalCount ?? 0;
  const selected = selection.type === 'include' ? [...selection.ids].map(String) : [];

  const approve = useApproveHeld(accountId);

  const scope = selected.length > 0 ? messagesCount(selected.length) : `all ${messagesCount(total)}`;
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        These messages wait for their recipients&apos; acceptable hours and go out on their own when those begin.
        {canApprove ? ' You may send them now instead.' : ' An administrator may send them now instead.'}
      </Typography>
      {canApprove && (
        <Box>
          <Button
            variant="contained"
            disabled={total === 0}
            onClick={() => {
              approve.reset();
              setConfirming(true);
            }}
          >
            Approve sending now
          </Button>
        </Box>
      )}
      {held.isError && <ErrorAlert message={errorMessage(held.error)} onRetry={() => void held.refetch()} />}
      <DataGrid
        aria-label="Messages held by acceptable hours"
        rows={held.data?.data ?? []}
        columns={columns}
        rowCount={total}
        loading={held.isFetching}
        paginationMode="server"
        paginationModel={paging}
        onPaginationModelChange={setPaging}
        pageSizeOptions={TABLE_PAGE_SIZES}
        checkboxSelection={canApprove}
        keepNonExistentRowsSelected
        rowSelectionModel={selection}
        onRowSelectionModelChange={setSelection}
        disableRowSelectionOnClick
        disableColumnFilter
        autoHeight
        localeText={{ noRowsLabel: 'No messages are waiting for acceptable hours' }}
      />
      {confirming && (
        <ConfirmDialog
          title="Approve Sending Now"
          message={`Send ${scope} now, outside the recipients' acceptable hours?`}
          confirmLabel="Send now"
          pending={approve.isPending}
          error={approve.isError ? <ErrorAlert message={errorMessage(approve.error)} /> : undefined}
          onConfirm={() => {
            approve.mutate(selected, {
              onSuccess: (answer) => {
                setConfirming(false);
                setSelection(noSelection());
                snackbar.show(`${messagesCount(answer.data.approved)} approved for sending now`);
              },
            });
          }}
          onCancel={() => {
            setConfirming(false);
          }}
        />
      )}
    </Stack>
  );
};
