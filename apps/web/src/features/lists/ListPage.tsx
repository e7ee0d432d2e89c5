import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useApiClient } from '../../api/apiContext';
import { ApiError, errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { AddContactsDialog } from './AddContactsDialog';
import { ListDialog } from './ListDialog';
import { MembersGrid } from './MembersGrid';
import { forgetRemovedList, useList } from './queries';

/** /lists/{listId}: the list's name, its members with their consent, adding and removing contacts. */
export const ListPage = ({ title }: PageProps) => {
  const { listId = '' } = useParams();
  const session = useSession();
  const account = session.account;
  if (account === null) return null;
  return <ListView key={listId} title={title} accountId={account.id} listId={listId} canWrite={can(account.user.role, 'lists.write')} />;
};

interface ListViewProps {
  title: string;
  accountId: string;
  listId: string;
  canWrite: boolean;
}

const ListView = ({ title, accountId, listId, canWrite }: ListViewProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const list = useList(accountId, listId);
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.delete(`/v1/accounts/${accountId}/lists/${listId}`),
    onSuccess: () => {
      forgetRemovedList(queryClient, accountId, listId);
      snackbar.show('List removed');
      void navigate('/');
    },
  });

  if (list.isPending) {
    return (
      <>
        <Typography variant="h1" gutterBottom>
          {title}
        </Typography>
        <LinearProgress aria-label="Loading list" />
      </>
    );
  }
  if (list.isError) {
    const missing = list.error instanceof ApiError && list.error.status === 404;
    return (
      <>
        <Typography variant="h1" gutterBottom>
          {title}
        </Typography>
        {missing ? (
          <Typography color="text.secondary">This list was not found. It may have been removed.</Typography>
        ) : (
          <ErrorAlert message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
        )}
      </>
    );
  }
  const { name, memberCount } = list.data;

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', flexGrow: 1, minWidth: 0 }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          {canWrite && (
            <IconButton aria-label="Rename list" onClick={() => { setRenaming(true); }} sx={{ ml: 1 }}>
              <EditOutlined />
            </IconButton>
          )}
        </Box>
        {canWrite && (
          <Stack direction="row" spacing={1}>
            <Button variant="contained" startIcon={<PersonAddAltOutlined />} onClick={() => { setAdding(true); }}>
              Add Contacts
            </Button>
            <Button color="error" startIcon={<DeleteOutlined />} onClick={() => { remove.reset(); setRemoving(true); }}>
              Delete List
            </Button>
          </Stack>
        )}
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="member-count">
        {memberCount === 1 ? '1 contact' : `${memberCount} contacts`}
      </Typography>
      <MembersGrid accountId={accountId} listId={listId} listName={name} canWrite={canWrite} />
      {renaming && <ListDialog accountId={accountId} list={list.data} onClose={() => { setRenaming(false); }} />}
      {adding && <AddContactsDialog accountId={accountId} listId={listId} listName={name} onClose={() => { setAdding(false); }} />}
      {removing && (
        <ConfirmDialog
          title="Delete List"
          message={`Delete the list ${name}? Its ${memberCount === 1 ? 'contact stays' : `${memberCount} contacts stay`} in the account; only the list and its opt-in records go.`}
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.isError ? <ErrorAlert message={errorMessage(remove.error)} /> : undefined}
          onConfirm={() => { remove.mutate(); }}
          onCancel={() => { setRemoving(false); }}
        />
      )}
    </>
  );
};
