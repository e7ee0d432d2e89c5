import EditOutlined from '@mui/icons-material/EditOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import {
  GridActionsCellItem,
  GridFilterInputValue,
  getGridBooleanOperators,
  getGridStringOperators,
  type GridColDef,
  type GridFilterOperator,
} from '@mui/x-data-grid';
import type { Contact } from '@parley/shared';
import { attributeField } from './contactsQuery';
import { InvalidContactIndicator } from './InvalidContactIndicator';

/** The server answers the filter; the grid only collects it. */
const serverSide = (): null => null;

/** Text columns match anywhere in the field on the server. */
const containsOnly = getGridStringOperators().filter((op) => op.value === 'contains');

const tagOperators: GridFilterOperator<Contact>[] = [
  { label: 'has all of', value: 'hasAll', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
];

const attributeOperators: GridFilterOperator<Contact>[] = [
  { label: 'equals', value: 'equals', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
  { label: 'does not equal', value: 'notEquals', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
  { label: 'contains', value: 'contains', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
];

const booleanOperators = getGridBooleanOperators();

const dateText = (value: string | null): string => (value === null ? '' : new Date(value).toLocaleString());

export interface ContactColumnOptions {
  attributeNames: readonly string[];
  canWrite: boolean;
  onEdit: (contact: Contact) => void;
}

/** The columns of the contacts table; attribute columns start hidden (the column chooser shows them). */
export function contactColumns({ attributeNames, canWrite, onEdit }: ContactColumnOptions): GridColDef<Contact>[] {
  const columns: GridColDef<Contact>[] = [
    {
      field: 'valid',
      headerName: 'Valid',
      type: 'boolean',
      width: 80,
      filterOperators: booleanOperators,
      renderCell: ({ row }) =>
        row.valid ? (
          <CheckCircleOutlined fontSize="small" color="success" aria-label="Valid" sx={{ verticalAlign: 'middle' }} />
        ) : (
          <InvalidContactIndicator contact={row} />
        ),
    },
    { field: 'firstName', headerName: 'First Name', flex: 1, minWidth: 120, filterOperators: containsOnly },
    { field: 'lastName', headerName: 'Last Name', flex: 1, minWidth: 120, filterOperators: containsOnly },
    {
      field: 'mobile',
      headerName: 'Mobile',
      flex: 1,
      minWidth: 140,
      filterOperators: containsOnly,
      valueGetter: (_value, row) => row.mobile.number,
    },
    { field: 'email', headerName: 'Email', flex: 1.2, minWidth: 160, filterOperators: containsOnly },
    {
      field: 'tags',
      headerName: 'Tags',
      flex: 1.2,
      minWidth: 160,
      sortable: false,
      filterOperators: tagOperators,
      valueGetter: (_value, row) => row.tags.map((t) => t.tag).join(', '),
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%', overflow: 'hidden' }}>
          {row.tags
            .filter((t) => t.visible)
            .map((t) => (
              <Chip key={t.tag} size="small" label={t.tag} />
            ))}
        </Stack>
      ),
    },
    {
      field: 'blocked',
      headerName: 'Blocked',
      type: 'boolean',
      width: 170,
      filterOperators: booleanOperators,
      valueGetter: (_value, row) => row.blocked !== null,
      renderCell: ({ row }) => dateText(row.blocked),
    },
    {
      field: 'created',
      headerName: 'Created',
      width: 170,
      filterable: false,
      valueGetter: (_value, row) => row.created.at,
      renderCell: ({ row }) => dateText(row.created.at),
    },
    {
      field: 'updated',
      headerName: 'Updated',
      width: 170,
      filterable: false,
      valueGetter: (_value, row) => row.updated.at,
      renderCell: ({ row }) => dateText(row.updated.at),
    },
    ...attributeNames.map(
      (name): GridColDef<Contact> => ({
        field: attributeField(name),
        headerName: name,
        minWidth: 120,
        flex: 1,
        sortable: false,
        filterOperators: attributeOperators,
        valueGetter: (_value, row) => row.attributes[name] ?? '',
      }),
    ),
  ];
  if (canWrite) {
    columns.push({
      field: 'actions',
      type: 'actions',
      headerName: 'Actions',
      width: 70,
      getActions: ({ row }) => [
        <GridActionsCellItem
          key="edit"
          icon={<EditOutlined fontSize="small" />}
          label={`Edit ${`${row.firstName} ${row.lastName}`.trim() || row.mobile.number}`}
          onClick={() => {
            onEdit(row);
          }}
        />,
      ],
    });
  }
  return columns;
}

/** Columns the table starts without (the column chooser adds them). */
export const initiallyHidden = (attributeNames: readonly string[]): Record<string, boolean> => ({
  updated: false,
  ...Object.fromEntries(attributeNames.map((name) => [attributeField(name), false])),
});
