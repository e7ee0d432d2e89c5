import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  type GridColumnVisibilityModel,
  type GridFilterModel,
  type GridPaginationModel,
  type GridRowId,
  type GridRowParams,
  type GridRowSelectionModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { can, CONTACT_PAGE_SIZES, DEFAULT_COUNTRY, NO_CONTACTS_MESSAGE, type Contact, type Role } from '@parley/shared';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useAccount } from '../../session/queries';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../pageProps';
import { AddToListDialog } from '../lists/AddToListDialog';
import { ImportContactsDialog } from './import/ImportContactsDialog';
import { contactColumns, initiallyHidden } from './contactColumns';
import { ContactDialog } from './ContactDialog';
import { contactFilterQuery, contactPageQuery, isFiltered, type ContactTableState } from './contactsQuery';
import {
  useAttributeNames,
  useContactPage,
  useDownloadContacts,
  useInvalidateContactQueries,
  useListOptions,
  useRemoveContacts,
} from './contactsQueries';
import { CONTACT_SEARCH_DEBOUNCE_MS, REFRESH_AFTER_DELETE_MS, useDebouncedValue } from './timing';

type Editing = { contact: Contact | null } | null;

const SendMessageDialog = lazy(() => import('../../sendMessage/SendMessageDialog').then((m) => ({ default: m.SendMessageDialog })));

const noSelection = (): GridRowSelectionModel => ({ type: 'include', ids: new Set<GridRowId>() });

/** The contacts table (spec §2 /contacts): search, list filter, column filters, CSV download, add, upload, edit. */
export const ContactsPage = ({ title }: PageProps) => {
  const session = useSession();
  const account = session.account;
  if (account === null) return null;
  return <ContactsTable title={title} accountId={account.id} role={account.user.role} />;
};

const ContactsTable = ({ title, accountId, role }: PageProps & { accountId: string; role: Role }) => {
  const snackbar = useSnackbar();
  const canWrite = can(role, 'contacts.write');
  const canImport = can(role, 'contacts.import');
  const canBlock = can(role, 'contacts.block');
  const fullAccount = useAccount(accountId);
  const defaultCountry = fullAccount.data?.defaults.country.code ?? DEFAULT_COUNTRY;
  const attributes = useAttributeNames(accountId);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const lists = useListOptions(accountId);

  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: CONTACT_PAGE_SIZES[0] });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [filterModel, setFilterModel] = useState<GridFilterModel>({ items: [] });
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, CONTACT_SEARCH_DEBOUNCE_MS);
  const [listId, setListId] = useState('');
  const [hidden, setHidden] = useState<GridColumnVisibilityModel | null>(null);
  const [selection, setSelection] = useState<GridRowSelectionModel>(noSelection);
  const [editing, setEditing] = useState<Editing>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  // The Create Contact quick action arrives with ?new=1 (also when this page is open): open the empty
  // dialog, then drop the flag so a reload does not open it again.
  const wantsNew = searchParams.get('new') === '1';
  useEffect(() => {
    if (!wantsNew) return;
    if (canWrite) setEditing({ contact: null });
    setSearchParams({}, { replace: true });
  }, [wantsNew, canWrite, setSearchParams]);
  const [importing, setImporting] = useState(false);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const [addingToList, setAddingToList] = useState(false);
  const canWriteLists = can(role, 'lists.write');
  const canSendMessages = can(role, 'messages.send');
  // Send Message to the selection or to one contact; the selection may span pages, so the contacts seen are kept.
  const [sendingTo, setSendingTo] = useState<Contact[] | null>(null);
  const [seen, setSeen] = useState<ReadonlyMap<string, Contact>>(new Map());

  const first = filterModel.items[0];
  const state: ContactTableState = {
    page: pagination.page,
    pageSize: pagination.pageSize,
    sort: sortModel[0] ?? null,
    filter: first === undefined ? null : { field: first.field, operator: first.operator, value: first.value as unknown },
    q,
    listId,
  };
  const contacts = useContactPage(accountId, contactPageQuery(state));
  const download = useDownloadContacts(accountId);
  const removeMany = useRemoveContacts(accountId);
  const invalidate = useInvalidateContactQueries(accountId);

  const rows = contacts.data?.data ?? [];
  const pageRows = contacts.data?.data;
  useEffect(() => {
    if (pageRows === undefined || pageRows.length === 0) return;
    setSeen((current) => new Map([...current, ...pageRows.map((c): [string, Contact] => [c.id, c])]));
  }, [pageRows]);
  // The header checkbox selects the page shown ('exclude' then lists the rows taken out again).
  const selectedIds =
    selection.type === 'include' ? [...selection.ids].map(String) : rows.map((r) => r.id).filter((id) => !selection.ids.has(id));
  const openEditor = (contact: Contact | null): void => {
    setEditing({ contact });
  };
  const columns = useMemo(
    () =>
      contactColumns({
        attributeNames,
        canWrite,
        onEdit: (contact) => {
          setEditing({ contact });
        },
      }),
    [attributeNames, canWrite],
  );
  const visibility = hidden ?? initiallyHidden(attributeNames);
  const filtered = isFiltered(state);

  const removeSelected = (): void => {
    removeMany.mutate(selectedIds, {
      onSuccess: (removed) => {
        setConfirmingRemove(false);
        setSelection(noSelection());
        snackbar.show(`Removed ${String(removed)} ${removed === 1 ? 'contact' : 'contacts'}`);
        // spec §9: the table refreshes a second after a multi-delete.
        setTimeout(() => {
          void invalidate();
        }, REFRESH_AFTER_DELETE_MS);
      },
    });
  };

  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 1.5, alignItems: { md: 'center' } }}>
        <TextField
          label="Search"
          size="small"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPagination((p) => ({ ...p, page: 0 }));
          }}
          sx={{ minWidth: 240 }}
        />
        {lists.isSuccess && lists.data.length > 0 && (
          <TextField
            select
            label="List"
            size="small"
            value={listId}
            onChange={(event) => {
              setListId(event.target.value);
              setPagination((p) => ({ ...p, page: 0 }));
            }}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">All Contacts</MenuItem>
            {lists.data.map((list) => (
              <MenuItem key={list.id} value={list.id}>
                {list.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Box sx={{ flex: 1 }} />
        {canWriteLists && selectedIds.length > 0 && (
          <Button
            variant="outlined"
            startIcon={<PlaylistAddOutlined />}
            onClick={() => {
              setAddingToList(true);
            }}
          >
            Add to List ({selectedIds.length})
          </Button>
        )}
        {canSendMessages && selectedIds.length > 0 && (
          <Button
            variant="outlined"
            startIcon={<SendOutlined />}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            onClick={() => {
              setSendingTo(selectedIds.flatMap((id) => seen.get(id) ?? []));
            }}
          >
            Send Message ({selectedIds.length})
          </Button>
        )}
        {canWrite && selectedIds.length > 0 && (
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteOutlined />}
            onClick={() => {
              removeMany.reset();
              setConfirmingRemove(true);
            }}
          >
            Delete ({selectedIds.length})
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          loading={download.isPending}
          onClick={() => {
            download.mutate(contactFilterQuery(state), {
              onError: (error) => {
                snackbar.show(errorMessage(error));
              },
            });
          }}
        >
          Download CSV
        </Button>
        {canImport && (
          <Button
            variant="outlined"
            startIcon={<FileUploadOutlined />}
            onClick={() => {
              setImporting(true);
            }}
          >
            Upload
          </Button>
        )}
        {canWrite && (
          <Button
            variant="contained"
            startIcon={<PersonAddAltOutlined />}
            onClick={() => {
              openEditor(null);
            }}
          >
            Add
          </Button>
        )}
      </Stack>
      {contacts.isError && <ErrorAlert message={errorMessage(contacts.error)} onRetry={() => void contacts.refetch()} />}
      <Box sx={{ width: '100%', bgcolor: 'background.paper' }}>
        <DataGrid<Contact>
          aria-label="Contacts"
          rows={rows}
          columns={columns}
          rowCount={contacts.data?.pagination.totalCount ?? 0}
          loading={contacts.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={[...CONTACT_PAGE_SIZES]}
          sortModel={sortModel}
          onSortModelChange={(model) => {
            setSortModel(model);
            setPagination((p) => ({ ...p, page: 0 }));
          }}
          filterModel={filterModel}
          onFilterModelChange={(model) => {
            setFilterModel(model);
            setPagination((p) => ({ ...p, page: 0 }));
          }}
          columnVisibilityModel={visibility}
          onColumnVisibilityModelChange={setHidden}
          checkboxSelection={canWrite}
          keepNonExistentRowsSelected
          rowSelectionModel={selection}
          onRowSelectionModelChange={setSelection}
          disableRowSelectionOnClick
          onRowClick={(params: GridRowParams<Contact>) => {
            openEditor(params.row);
          }}
          showToolbar
          slotProps={{
            toolbar: { showQuickFilter: false, csvOptions: { disableToolbarButton: true }, printOptions: { disableToolbarButton: true } },
          }}
          slots={{
            noRowsOverlay: () => (
              <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
                <Typography color="text.secondary">{filtered ? 'No contacts match these filters' : NO_CONTACTS_MESSAGE}</Typography>
              </Stack>
            ),
          }}
          sx={{ minHeight: 300, '& .MuiDataGrid-row': { cursor: 'pointer' } }}
        />
      </Box>
      {editing !== null && (
        <ContactDialog
          accountId={accountId}
          contact={editing.contact}
          defaultCountry={defaultCountry}
          attributeNames={attributeNames}
          canWrite={canWrite}
          canBlock={canBlock}
          onClose={() => {
            setEditing(null);
          }}
          {...(canSendMessages
            ? {
                onSendMessage: (contact: Contact) => {
                  setEditing(null);
                  setSendingTo([contact]);
                },
              }
            : {})}
        />
      )}
      {sendingTo !== null && (
        <Suspense fallback={null}>
          <SendMessageDialog
            accountId={accountId}
            recipients={sendingTo}
            onClose={() => {
              setSendingTo(null);
            }}
          />
        </Suspense>
      )}
      {canImport && (
        <ImportContactsDialog
          open={importing}
          onClose={() => {
            setImporting(false);
          }}
          onImported={() => void invalidate()}
        />
      )}
      {addingToList && (
        <AddToListDialog
          accountId={accountId}
          contactIds={selectedIds}
          onClose={() => {
            setAddingToList(false);
          }}
          onAdded={() => {
            setSelection(noSelection());
            void invalidate();
          }}
        />
      )}
      {confirmingRemove && (
        <ConfirmDialog
          title="Remove Contacts"
          message={`Remove ${String(selectedIds.length)} ${selectedIds.length === 1 ? 'contact' : 'contacts'}? This cannot be undone.`}
          confirmLabel="Remove"
          pending={removeMany.isPending}
          error={removeMany.isError ? <ErrorAlert message={errorMessage(removeMany.error)} /> : undefined}
          onConfirm={removeSelected}
          onCancel={() => {
            setConfirmingRemove(false);
          }}
        />
      )}
    </>
  );
};
