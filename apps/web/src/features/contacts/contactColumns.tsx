import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Box from '@mui/material/Box';
import type { GridColDef } from '@mui/x-data-grid';
import { lineTypeLabels, lineTypeOfNumberType, type Contact } from '@parley/shared';
import type { PhoneDisplay } from '../../session/usePhoneDisplay';
import { CHECKBOX_COLUMN_WIDTH, type FitColumn } from './columnFit';
import type { ContactRowAction, ContactRowActionId } from './contactRowActions';
import { attributeOperators, booleanOperators, containsOnly, tagOperators } from './contactFilterOperators';
import { ContactRowMenu } from './ContactRowMenu';
import { attributeField } from './contactsQuery';
import { InvalidContactIndicator } from './InvalidContactIndicator';

/** A date in a narrow column: the day, with the time in its tooltip. */
const DateCell = ({ value }: { value: string | undefined }) =>
  value === undefined ? null : (
    <Box component="span" title={new Date(value).toLocaleString()}>
      {new Date(value).toLocaleDateString()}
    </Box>
  );

const ACTIONS_COLUMN_WIDTH = 48;
/** The class of the row menu's column header (the grid hides its separator). */
export const ROW_MENU_HEADER_CLASS = 'contacts-row-menu-header';

// In sx a width of 1 means 100%: the pixel sizes are written out.
const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

export interface ContactColumnOptions {
  attributeNames: readonly string[];
  display: PhoneDisplay;
  /** The actions of a row's menu; none (Read Only) leaves the menu column out. */
  rowActions: (contact: Contact) => ContactRowAction[];
  onRowAction: (contact: Contact, action: ContactRowActionId) => void;
  hasRowActions: boolean;
}

/**
 * The columns of the contacts table; attribute columns start hidden (the column chooser shows them). The
 * last column holds each row's menu (Edit, Send Message, Block, Remove); the table starts with the columns
 * that fit its width (contactColumnFit), so that menu shows without scrolling sideways.
 */
export function contactColumns({ attributeNames, display, rowActions, onRowAction, hasRowActions }: ContactColumnOptions): GridColDef<Contact>[] {
  const columns: GridColDef<Contact>[] = [
    {
      field: 'valid',
      headerName: 'Valid',
      type: 'boolean',
      width: 64,
      filterOperators: booleanOperators,
      renderCell: ({ row }) =>
        row.valid ? (
          <CheckCircleOutlined fontSize="small" color="success" aria-label="Valid" sx={{ verticalAlign: 'middle' }} />
        ) : (
          <InvalidContactIndicator contact={row} />
        ),
    },
    { field: 'firstName', headerName: 'First Name', flex: 1, minWidth: 80, filterOperators: containsOnly },
    { field: 'lastName', headerName: 'Last Name', flex: 1, minWidth: 90, filterOperators: containsOnly },
    {
      field: 'mobile',
      headerName: 'Mobile',
      // Room for an international number ('+44 7400 123456') without cutting it.
      flex: 0.6,
      minWidth: 155,
      filterOperators: containsOnly,
      // The filter and the sort work on the stored E.164 number; the cell shows it as the account reads it.
      valueGetter: (_value, row) => row.mobile.number,
      valueFormatter: (value: string) => display.phone(value),
    },
    { field: 'email', headerName: 'Email', flex: 1.2, minWidth: 150, filterOperators: containsOnly },
    {
      field: 'tags',
      headerName: 'Tags',
      flex: 1,
      minWidth: 120,
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
      field: 'numberType',
      headerName: 'Number Type',
      width: 130,
      sortable: false,
      filterable: false,
      valueGetter: (_value, row) => (row.numberType === undefined ? '' : lineTypeLabels[lineTypeOfNumberType(row.numberType)]),
    },
    {
      field: 'blocked',
      headerName: 'Blocked',
      type: 'boolean',
      width: 110,
      filterOperators: booleanOperators,
      valueGetter: (_value, row) => row.blocked !== undefined,
      renderCell: ({ row }) => <DateCell value={row.blocked} />,
    },
    {
      field: 'created',
      headerName: 'Created',
      width: 110,
      filterable: false,
      valueGetter: (_value, row) => row.created.at,
      renderCell: ({ row }) => <DateCell value={row.created.at} />,
    },
    {
      field: 'updated',
      headerName: 'Updated',
      width: 110,
      filterable: false,
      valueGetter: (_value, row) => row.updated.at,
      renderCell: ({ row }) => <DateCell value={row.updated.at} />,
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
  if (hasRowActions) {
    columns.push({
      field: 'actions',
      headerName: 'Actions',
      width: ACTIONS_COLUMN_WIDTH,
      sortable: false,
      filterable: false,
      hideable: false,
      // The last column: a resize handle would reach past the table's edge and make it scroll sideways.
      resizable: false,
      headerClassName: ROW_MENU_HEADER_CLASS,
      disableColumnMenu: true,
      align: 'center',
      // The header stays empty; its name is for the column chooser and screen readers.
      renderHeader: () => (
        <Box component="span" sx={visuallyHidden}>
          Actions
        </Box>
      ),
      renderCell: ({ row }) => (
        <ContactRowMenu
          name={display.name(row)}
          actions={rowActions(row)}
          onAction={(action) => {
            onRowAction(row, action);
          }}
        />
      ),
    });
  }
  return columns;
}

const widthOf = (columns: readonly GridColDef<Contact>[], field: string): FitColumn => {
  const column = columns.find((c) => c.field === field);
  return { field, width: column?.flex === undefined ? (column?.width ?? 100) : (column.minWidth ?? 50) };
};

/** The columns always shown, and the optional ones in the order they give way when the table is narrow. */
export const contactColumnFit = (
  columns: readonly GridColDef<Contact>[],
  selectable: boolean,
): { fixed: FitColumn[]; priority: FitColumn[] } => ({
  fixed: [
    ...(selectable ? [{ field: '__check__', width: CHECKBOX_COLUMN_WIDTH }] : []),
    ...['firstName', 'mobile', ...(columns.some((c) => c.field === 'actions') ? ['actions'] : [])].map((field) => widthOf(columns, field)),
  ],
  priority: ['lastName', 'valid', 'email', 'tags', 'blocked', 'created'].map((field) => widthOf(columns, field)),
});

/** Columns the table starts without (the column chooser adds them). */
export const initiallyHidden = (attributeNames: readonly string[]): Record<string, boolean> => ({
  updated: false,
  numberType: false,
  ...Object.fromEntries(attributeNames.map((name) => [attributeField(name), false])),
});
