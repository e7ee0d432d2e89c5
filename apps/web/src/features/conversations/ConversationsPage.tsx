import AddCommentOutlined from '@mui/icons-material/AddCommentOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { DataGrid, type GridPaginationModel, type GridRowParams } from '@mui/x-data-grid';
import { can, CONTACT_PAGE_SIZES, CONVERSATION_EMPTY_STATE, type Conversation, type Role } from '@parley/shared';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useIsPhone } from '../../components/useIsPhone';
import { INBOX_FETCH_DEBOUNCE_MS } from './inbox/invalidationBatcher';
import { useConversationList } from './inbox/queries';
import { useSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { useDebouncedValue } from '../contacts';
import type { PageProps } from '../../app/pageProps';
import { conversationColumns } from './conversationColumns';
import { conversationPath } from './paths';
import { StartConversationDialog } from './StartConversationDialog';

/** The conversation table (/conversations): Closed and Unread Only switches, unread rows highlighted. */
export const ConversationsPage = ({ title }: PageProps) => {
  const account = useSession().account;
  if (account === null) return null;
  return <ConversationsTable title={title} accountId={account.id} role={account.user.role} />;
};

const ConversationsTable = ({ title, accountId, role }: PageProps & { accountId: string; role: Role }) => {
  const navigate = useNavigate();
  const [closed, setClosed] = useState(false);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [search, setSearch] = useState('');
  // Conversation fetches wait 500 ms after the last keystroke.
  const q = useDebouncedValue(search.trim(), INBOX_FETCH_DEBOUNCE_MS);
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: CONTACT_PAGE_SIZES[0] });
  const [starting, setStarting] = useState(false);
  const display = usePhoneDisplay();
  // A phone lists conversations as a messaging app does: one column, the name over the last message.
  const compact = useIsPhone();
  const columns = useMemo(() => conversationColumns(display, compact), [display, compact]);

  const conversations = useConversationList(accountId, {
    closed,
    unread: unreadOnly,
    q,
    offset: pagination.page * pagination.pageSize,
    limit: pagination.pageSize,
  });
  const firstPage = (): void => {
    setPagination((p) => ({ ...p, page: 0 }));
  };

  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 1.5, alignItems: { md: 'center' } }}>
        <TextField
          label="Search"
          placeholder="Name or number"
          size="small"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            firstPage();
          }}
          sx={{ minWidth: 240 }}
        />
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <FormControlLabel
            control={
              <Switch
                checked={closed}
                onChange={(event) => {
                  setClosed(event.target.checked);
                  firstPage();
                }}
              />
            }
            label="Closed"
          />
          <FormControlLabel
            control={
              <Switch
                checked={unreadOnly}
                onChange={(event) => {
                  setUnreadOnly(event.target.checked);
                  firstPage();
                }}
              />
            }
            label="Unread Only"
          />
        </Stack>
        <Box sx={{ flex: 1 }} />
        {can(role, 'conversations.start') && (
          <Button
            variant="contained"
            startIcon={<AddCommentOutlined />}
            onClick={() => {
              setStarting(true);
            }}
          >
            Start Conversation
          </Button>
        )}
      </Stack>
      {conversations.isError && <ErrorAlert message={errorMessage(conversations.error)} onRetry={() => void conversations.refetch()} />}
      <Box sx={{ width: '100%', bgcolor: 'background.paper' }}>
        <DataGrid<Conversation>
          aria-label="Conversations"
          rows={conversations.data?.data ?? []}
          columns={columns}
          rowCount={conversations.data?.pagination.totalCount ?? 0}
          loading={conversations.isFetching && (conversations.data === undefined || conversations.isPlaceholderData)}
          paginationMode="server"
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={[...CONTACT_PAGE_SIZES]}
          disableColumnSorting
          disableColumnFilter
          disableRowSelectionOnClick
          rowHeight={compact ? 68 : 52}
          getRowClassName={({ row }) => (row.unread.length > 0 ? 'conversation-unread' : '')}
          onRowClick={(params: GridRowParams<Conversation>) => void navigate(conversationPath(params.row.id))}
          slots={{
            noRowsOverlay: () => (
              <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
                <Typography color="text.secondary">{q === '' ? CONVERSATION_EMPTY_STATE : 'No conversations match this search'}</Typography>
              </Stack>
            ),
          }}
          sx={(theme) => ({
            minHeight: 300,
            '& .MuiDataGrid-row': { cursor: 'pointer' },
            // Unread rows are highlighted.
            '& .conversation-unread': {
              fontWeight: 700,
              bgcolor: alpha(theme.palette.primary.main, 0.07),
              '&:hover': { bgcolor: alpha(theme.palette.primary.main, 0.12) },
            },
          })}
        />
      </Box>
      {starting && (
        <StartConversationDialog
          accountId={accountId}
          onClose={() => {
            setStarting(false);
          }}
        />
      )}
    </>
  );
};
