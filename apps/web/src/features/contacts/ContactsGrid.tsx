import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridFilterModel,
  type GridPaginationModel,
  type GridRowParams,
  type GridRowSelectionModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { CONTACT_PAGE_SIZES, NO_CONTACTS_MESSAGE, type Contact } from '@parley/shared';
import { ContactsGridToolbar } from './ContactsGridToolbar';
import { ROW_MENU_HEADER_CLASS } from './contactColumns';

interface ContactsGridProps {
  rows: Contact[];
  totalCount: number;
  loading: boolean;
  columns: GridColDef<Contact>[];
  visibility: GridColumnVisibilityModel;
  onVisibility: (model: GridColumnVisibilityModel) => void;
  pagination: GridPaginationModel;
  onPagination: (model: GridPaginationModel) => void;
  sortModel: GridSortModel;
  onSort: (model: GridSortModel) => void;
  filterModel: GridFilterModel;
  onFilter: (model: GridFilterModel) => void;
  /** Rows have checkboxes (roles that may change contacts). */
  selectable: boolean;
  selection: GridRowSelectionModel;
  onSelection: (model: GridRowSelectionModel) => void;
  /** Something narrows the table (for the empty text). */
  filtered: boolean;
  onOpen: (contact: Contact) => void;
}

/** The contacts grid: paged, sorted and filtered on the server; a row opens the contact. */
export const ContactsGrid = ({
  rows,
  totalCount,
  loading,
  columns,
  visibility,
  onVisibility,
  pagination,
  onPagination,
  sortModel,
  onSort,
  filterModel,
  onFilter,
  selectable,
  selection,
  onSelection,
  filtered,
  onOpen,
}: ContactsGridProps) => (
  <DataGrid<Contact>
    aria-label="Contacts"
    rows={rows}
    columns={columns}
    rowCount={totalCount}
    loading={loading}
    paginationMode="server"
    sortingMode="server"
    filterMode="server"
    paginationModel={pagination}
    onPaginationModelChange={onPagination}
    pageSizeOptions={[...CONTACT_PAGE_SIZES]}
    sortModel={sortModel}
    onSortModelChange={onSort}
    filterModel={filterModel}
    onFilterModelChange={onFilter}
    columnVisibilityModel={visibility}
    onColumnVisibilityModelChange={onVisibility}
    checkboxSelection={selectable}
    keepNonExistentRowsSelected
    rowSelectionModel={selection}
    onRowSelectionModelChange={onSelection}
    disableRowSelectionOnClick
    onRowClick={(params: GridRowParams<Contact>) => {
      onOpen(params.row);
    }}
    showToolbar
    slots={{
      toolbar: ContactsGridToolbar,
      noRowsOverlay: () => (
        <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
          <Typography color="text.secondary">{filtered ? 'No contacts match these filters' : NO_CONTACTS_MESSAGE}</Typography>
        </Stack>
      ),
    }}
    sx={{
      minHeight: 300,
      '& .MuiDataGrid-row': { cursor: 'pointer' },
      // The row menu's column ends the table: its separator would stick out past the edge and scroll it.
      [`& .${ROW_MENU_HEADER_CLASS} .MuiDataGrid-columnSeparator`]: { display: 'none' },
    }}
  />
);
