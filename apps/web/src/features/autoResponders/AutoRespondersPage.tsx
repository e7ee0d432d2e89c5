import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import {
  AUTO_RESPONDERS_EMPTY_STATE,
  AUTO_RESPONDERS_TRIAL_MESSAGE,
  autoResponderKind,
  can,
  showsPaidPlanFeatures,
  type AutoResponder,
} from '@parley/shared';
import { useMemo, useState } from 'react';
import { RemoveDialog } from '../../components/RemoveDialog';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';
import { PageTable } from '../../components/PageTable';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { AutoResponderDialog } from './AutoResponderDialog';
import { useAutoResponders, useRemoveAutoResponder } from './queries';

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
            <EditRemoveButtons
              editLabel={`Edit the auto responder for ${row.match}`}
              removeLabel={`Remove the auto responder for ${row.match}`}
              onEdit={() => { setEditing({ responder: row }); }}
              onRemove={() => {
                resetRemove();
                setRemoving(row);
              }}
            />
          </Box>
        ),
      },
    ];
  }, [canWrite, resetRemove]);

  return (
    <>
      <PageTable
        intro="An incoming message gets the response of the first auto responder that matches it, from the top."
        add={canWrite ? { label: 'Add Auto Responder', onClick: () => { setEditing({ responder: null }); } } : undefined}
        label="Auto Responders"
        query={responders}
        columns={columns}
        emptyLabel={AUTO_RESPONDERS_EMPTY_STATE}
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
        <RemoveDialog
          title="Remove Auto Responder"
          message={`Remove the auto responder for "${removing.match}"? Incoming messages will no longer get its response.`}
          removal={remove}
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
