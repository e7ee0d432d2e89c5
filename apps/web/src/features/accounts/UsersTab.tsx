import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { roleLabels, type AccountUser } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { RemoveDialog } from '../../components/RemoveDialog';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useAccountUsers, usersQueryKey } from './queries';
import { UserDialog } from './UserDialog';

type Editing = { kind: 'add' } | { kind: 'edit'; user: AccountUser } | null;

const fullName = (user: AccountUser): string => `${user.firstName} ${user.lastName}`.trim();

/** The account's members and open invitations, with add, edit role, resend an invitation and remove. */
export const UsersTab = ({ accountId }: { accountId: string }) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const users = useAccountUsers(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<AccountUser | null>(null);
  const remove = useMutation({
    mutationFn: (user: AccountUser) => api.delete(`/v1/accounts/${accountId}/users/${user.id}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: usersQueryKey(accountId) });
      snackbar.show('User removed');
      setRemoving(null);
    },
  });

  const resend = useMutation({
    mutationFn: (user: AccountUser) => api.post(`/v1/accounts/${accountId}/users/${user.id}/resend`),
    onSuccess: (_answer, user) => {
      snackbar.show(`Invitation sent again to ${user.email}`);
    },
    // The answer says why (sent less than a minute ago, mail not sent): the row stays as it was.
    onError: (error) => {
      snackbar.show(errorMessage(error));
    },
  });

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button startIcon={<PersonAddAltOutlined />} variant="contained" onClick={() => { setEditing({ kind: 'add' }); }}>
          Add User
        </Button>
      </Box>
      {users.isPending && <LinearProgress aria-label="Loading users" />}
      {users.isError && <ErrorAlert message={errorMessage(users.error)} onRetry={() => void users.refetch()} />}
      {users.isSuccess && (
        <TableContainer>
          <Table size="small" aria-label="Users">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {users.data.map((user) => (
                <TableRow key={user.id}>
                  <TableCell>{fullName(user)}</TableCell>
                  <TableCell>{user.email}</TableCell>
                  <TableCell>{roleLabels[user.role]}</TableCell>
                  <TableCell>
                    <Chip size="small" label={user.status === 'active' ? 'Active' : 'Invited'} color={user.status === 'active' ? 'success' : 'default'} variant="outlined" />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {user.status === 'invited' && (
                      <IconButton
                        aria-label={`Resend invitation to ${user.email}`}
                        title="Resend invitation"
                        size="small"
                        disabled={resend.isPending && resend.variables.id === user.id}
                        onClick={() => { resend.mutate(user); }}
                      >
                        <ForwardToInboxOutlined fontSize="small" />
                      </IconButton>
                    )}
                    <EditRemoveButtons
                      editLabel={`Edit ${user.email}`}
                      removeLabel={`Remove ${user.email}`}
                      onEdit={() => { setEditing({ kind: 'edit', user }); }}
                      onRemove={() => { remove.reset(); setRemoving(user); }}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {editing !== null && (
        <UserDialog
          accountId={accountId}
          user={editing.kind === 'edit' ? editing.user : undefined}
          onClose={() => { setEditing(null); }}
        />
      )}
      {removing !== null && (
        <RemoveDialog
          title="Remove User"
          message={`Remove ${fullName(removing) || removing.email} from this account? ${removing.status === 'invited' ? 'The invitation is withdrawn.' : 'They keep their Parley user.'}`}
          removal={remove}
          onConfirm={() => { remove.mutate(removing); }}
          onCancel={() => { setRemoving(null); }}
        />
      )}
    </Box>
  );
};
