import AddOutlined from '@mui/icons-material/AddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Group } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { RemoveDialog } from '../../components/RemoveDialog';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneNumbers } from '../phoneNumbers';
import { GroupDialog } from './GroupDialog';
import { accountNumbers, groupNumberLabel } from './groupPhoneNumbers';
import { groupRemoved, groupsQueryKey, useGroups, type GroupPage } from './queries';

type Editing = { kind: 'create' } | { kind: 'update'; group: Group } | null;

const userNames = (group: Group): string =>
  group.users.map((u) => `${u.firstName} ${u.lastName}`.trim() || u.email).join(', ');

interface GroupsDialogProps {
  accountId: string;
  /** Administrators create, change and remove groups; everyone else sees them. */
  canManage: boolean;
  onClose: () => void;
}

/** The Groups list dialog: each group with its tags, users and phone numbers. */
export const GroupsDialog = ({ accountId, canManage, onClose }: GroupsDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const titleId = useId();
  const groups = useGroups(accountId);
  const phoneNumbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  const numbers = phoneNumbers.isSuccess ? accountNumbers(phoneNumbers.data) : undefined;
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Group | null>(null);
  const remove = useMutation({
    mutationFn: (group: Group) => api.delete(`/v1/accounts/${accountId}/groups/${group.id}`),
    onSuccess: (_answer, group) => {
      queryClient.setQueryData<GroupPage | undefined>(groupsQueryKey(accountId), (page) => groupRemoved(page, group.id));
      snackbar.show('Group removed');
      setRemoving(null);
    },
  });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>Groups</DialogTitle>
      <DialogContent>
        {canManage && (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
            <Button variant="contained" startIcon={<AddOutlined />} onClick={() => { setEditing({ kind: 'create' }); }}>
              Add Group
            </Button>
          </Box>
        )}
        {groups.isFetching && <LinearProgress aria-label="Loading groups" />}
        {groups.isError && <ErrorAlert message={errorMessage(groups.error)} onRetry={() => void groups.refetch()} />}
        {groups.isSuccess && groups.data.data.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            No Groups Exist
          </Typography>
        )}
        {groups.isSuccess && groups.data.data.length > 0 && (
          <TableContainer>
            <Table size="small" aria-label="Groups">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Tags</TableCell>
                  <TableCell>Users</TableCell>
                  <TableCell>Phone Numbers</TableCell>
                  {canManage && <TableCell align="right">Actions</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {groups.data.data.map((group) => (
                  <TableRow key={group.id}>
                    <TableCell>{group.name}</TableCell>
                    <TableCell>
                      {group.tags.map((tag) => (
                        <Chip key={tag} size="small" label={tag} sx={{ mr: 0.5, mb: 0.5 }} />
                      ))}
                    </TableCell>
                    <TableCell>{userNames(group)}</TableCell>
                    <TableCell>
                      {/* Without the account's numbers they cannot be named: their count stands in. */}
                      {numbers === undefined
                        ? group.phoneNumbers.length
                        : group.phoneNumbers.map(({ id }) => (
                            <Chip key={id} size="small" label={groupNumberLabel(id, numbers, display.phone)} sx={{ mr: 0.5, mb: 0.5 }} />
                          ))}
                    </TableCell>
                    {canManage && (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <EditRemoveButtons
                          editLabel={`Edit ${group.name}`}
                          removeLabel={`Remove ${group.name}`}
                          onEdit={() => { setEditing({ kind: 'update', group }); }}
                          onRemove={() => { remove.reset(); setRemoving(group); }}
                        />
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
      {editing !== null && (
        <GroupDialog
          accountId={accountId}
          group={editing.kind === 'update' ? editing.group : undefined}
          onClose={() => { setEditing(null); }}
        />
      )}
      {removing !== null && (
        <RemoveDialog
          title="Remove Group"
          message={`Remove the group ${removing.name}? Its users keep their access to the account.`}
          removal={remove}
          onConfirm={() => { remove.mutate(removing); }}
          onCancel={() => { setRemoving(null); }}
        />
      )}
    </Dialog>
  );
};
