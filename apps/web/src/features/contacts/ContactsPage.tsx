import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  type GridColumnVisibilityModel,
  type GridFilterModel,
  type GridPaginationModel,
  type GridRowId,
  type GridRowSelectionModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { can, CONTACT_PAGE_SIZES, DEFAULT_COUNTRY, type Role } from '@parley/shared';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useElementWidth } from './useElementWidth';
import { useAccount } from '../../session/queries';
import { useSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import type { PageProps } from '../../app/pageProps';
import { fitColumnVisibility } from './columnFit';
import { contactColumnFit, contactColumns, initiallyHidden } from './contactColumns';
import { useContactCall } from './contactCall';
import { contactPermissions, contactRowActions } from './contactRowActions';
import { ContactSelectionContext, type ContactSelection } from './contactSelection';
import { ContactsGrid } from './ContactsGrid';
import { ContactsPageDialogs, rowActionDialog, type ContactsDialog } from './ContactsPageDialogs';
import { useCreateContactParam, useSeenContacts } from './contactsPageHooks';
import { contactFilterQuery, contactPageQuery, isFiltered, type ContactTableState } from './contactsQuery';
import { useAttributeNames, useContactPage, useDownloadContacts, useListOptions } from './contactsQueries';
import { CONTACTS_TOOLBAR_COMPACT_BELOW, ContactsToolbar } from './ContactsToolbar';
import { CONTACT_SEARCH_DEBOUNCE_MS, useDebouncedValue } from './timing';

/** Below this width the selection's actions shrink to an icon and a menu. */
const SELECTION_COMPACT_BELOW = 760;

const noSelection = (): GridRowSelectionModel => ({ type: 'include', ids: new Set<GridRowId>() });

/** The contacts table (/contacts): search, list filter, column filters, CSV download, add, upload, edit. */
export const ContactsPage = ({ title }: PageProps) => {
  const session = useSession();
  const account = session.account;
  if (account === null) return null;
  return <ContactsTable title={title} accountId={account.id} role={account.user.role} />;
};

const ContactsTable = ({ title, accountId, role }: PageProps & { accountId: string; role: Role }) => {
  const snackbar = useSnackbar();
  const display = usePhoneDisplay();
  const permissions = contactPermissions(role);
  const { canWrite, canBlock, canSendMessages } = permissions;
  const canImport = can(role, 'contacts.import');
  const canWriteLists = can(role, 'lists.write');
  const fullAccount = useAccount(accountId);
  const defaultCountry = fullAccount.data?.defaults.country.code ?? DEFAULT_COUNTRY;
  const attributes = useAttributeNames(accountId);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const lists = useListOptions(accountId);
  const [measure, width] = useElementWidth();

  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: CONTACT_PAGE_SIZES[0] });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [filterModel, setFilterModel] = useState<GridFilterModel>({ items: [] });
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, CONTACT_SEARCH_DEBOUNCE_MS);
  const [listId, setListId] = useState('');
  const [hidden, setHidden] = useState<GridColumnVisibilityModel | null>(null);
  const [selection, setSelection] = useState<GridRowSelectionModel>(noSelection);
  const [dialog, setDialog] = useState<ContactsDialog>(null);
  const contactCall = useContactCall(accountId, role);
  useCreateContactParam(canWrite, () => {
    setDialog({ kind: 'edit', contact: null });
  });

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

  const rows = contacts.data?.data ?? [];
  const seen = useSeenContacts(contacts.data?.data);
  // The header checkbox selects the page shown ('exclude' then lists the rows taken out again).
  const selectedIds =
    selection.type === 'include' ? [...selection.ids].map(String) : rows.map((r) => r.id).filter((id) => !selection.ids.has(id));

  const columns = useMemo(
    () =>
      contactColumns({
        attributeNames,
        display,
        hasRowActions: canWrite,
        rowActions: (contact) => contactRowActions({ canWrite, canBlock, canSendMessages }, contact, contactCall.call),
        onRowAction: (contact, action) => {
          if (action === 'call') contactCall.start(contact);
          else setDialog(rowActionDialog(contact, action));
        },
      }),
    [attributeNames, display, canWrite, canBlock, canSendMessages, contactCall],
  );
  // Until someone picks columns, the table starts with what fits its width, the row menu always among them.
  const visibility = useMemo(() => {
    if (hidden !== null) return hidden;
    const fit = contactColumnFit(columns, canWrite);
    return { ...initiallyHidden(attributeNames), ...(width === null ? {} : fitColumnVisibility(width, fit.fixed, fit.priority)) };
  }, [hidden, columns, canWrite, attributeNames, width]);
  const toFirstPage = () => {
    setPagination((p) => ({ ...p, page: 0 }));
  };
  const selectionActions: ContactSelection = {
    count: selectedIds.length,
    compact: width !== null && width < SELECTION_COMPACT_BELOW,
    onClear: () => {
      setSelection(noSelection());
    },
    ...(canWriteLists ? { onAddToList: () => { setDialog({ kind: 'addToList', ids: selectedIds }); } } : {}),
    ...(canSendMessages ? { onSendMessage: () => { setDialog({ kind: 'send', contacts: selectedIds.flatMap((id) => seen.get(id) ?? []) }); } } : {}),
    ...(canWrite ? { onCheckNumberTypes: () => { setDialog({ kind: 'checkNumberTypes', ids: selectedIds }); } } : {}),
    ...(canWrite ? { onDelete: () => { setDialog({ kind: 'removeMany', ids: selectedIds }); } } : {}),
  };

  return (
    <Box ref={measure}>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <ContactsToolbar
        compact={width !== null && width < CONTACTS_TOOLBAR_COMPACT_BELOW}
        search={search}
        onSearch={(text) => {
          setSearch(text);
          toFirstPage();
        }}
        lists={lists.data ?? []}
        listId={listId}
        onListId={(id) => {
          setListId(id);
          toFirstPage();
        }}
        downloading={download.isPending}
        onDownload={() => {
          download.mutate(contactFilterQuery(state), {
            onError: (error) => {
              snackbar.show(errorMessage(error));
            },
          });
        }}
        {...(canImport ? { onUpload: () => { setDialog({ kind: 'import' }); } } : {})}
        {...(canWrite ? { onAdd: () => { setDialog({ kind: 'edit', contact: null }); } } : {})}
      />
      {contacts.isError && <ErrorAlert message={errorMessage(contacts.error)} onRetry={() => void contacts.refetch()} />}
      <Box sx={{ width: '100%', bgcolor: 'background.paper' }}>
        <ContactSelectionContext.Provider value={selectionActions}>
          <ContactsGrid
            rows={rows}
            totalCount={contacts.data?.pagination.totalCount ?? 0}
            loading={contacts.isFetching}
            columns={columns}
            visibility={visibility}
            onVisibility={setHidden}
            pagination={pagination}
            onPagination={setPagination}
            sortModel={sortModel}
            onSort={(model) => {
              setSortModel(model);
              toFirstPage();
            }}
            filterModel={filterModel}
            onFilter={(model) => {
              setFilterModel(model);
              toFirstPage();
            }}
            selectable={canWrite}
            selection={selection}
            onSelection={setSelection}
            filtered={isFiltered(state)}
            onOpen={(contact) => {
              setDialog({ kind: 'edit', contact });
            }}
          />
        </ContactSelectionContext.Provider>
      </Box>
      <ContactsPageDialogs
        accountId={accountId}
        dialog={dialog}
        onDialog={setDialog}
        defaultCountry={defaultCountry}
        attributeNames={attributeNames}
        permissions={{ ...permissions, canImport }}
        onSelectionDone={() => {
          setSelection(noSelection());
        }}
      />
    </Box>
  );
};
