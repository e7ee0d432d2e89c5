import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { Notification } from '@parley/shared';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';
import { Destination, EventChips, StatusCell, TypeChip } from './NotificationCells';
import { filterLines, type FilterNames } from './notificationStatus';

/** What a row's buttons do. */
export interface NotificationRowActions {
  deliveries: (notification: Notification) => void;
  edit: (notification: Notification) => void;
  remove: (notification: Notification) => void;
}

interface ColumnOptions {
  canWrite: boolean;
  /** A phone: one column holds it all, beside the buttons. */
  compact: boolean;
  names: FilterNames;
  actions: NotificationRowActions;
}

const visuallyHidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

const fixed = { sortable: false, filterable: false, disableColumnMenu: true } as const;

const wide = (names: FilterNames): GridColDef<Notification>[] => [
  { field: 'type', headerName: 'Type', width: 120, renderCell: ({ row }) => <TypeChip type={row.type} /> },
  { field: 'destination', headerName: 'Destination', flex: 1, minWidth: 200, renderCell: ({ row }) => <Destination value={row.destination} /> },
  { field: 'eventTypes', headerName: 'Events', flex: 1.4, minWidth: 220, ...fixed, renderCell: ({ row }) => <EventChips notification={row} /> },
  {
    field: 'filters',
    headerName: 'Filters',
    flex: 1,
    minWidth: 140,
    ...fixed,
    renderCell: ({ row }) => (
      <Stack>
        {filterLines(row.filters, names).map((line) => (
          <Typography key={line} variant="body2">
            {line}
          </Typography>
        ))}
      </Stack>
    ),
  },
  { field: 'disabled', headerName: 'Status', width: 150, renderCell: ({ row }) => <StatusCell notification={row} /> },
];

const summary = (names: FilterNames): GridColDef<Notification> => ({
  field: 'destination',
  headerName: 'Notification',
  flex: 1,
  minWidth: 160,
  ...fixed,
  renderCell: ({ row }) => (
    <Stack spacing={0.75} sx={{ minWidth: 0 }}>
      <TypeChip type={row.type} />
      <Destination value={row.destination} />
      <EventChips notification={row} />
      <Typography variant="body2" color="text.secondary">
        Filters: {filterLines(row.filters, names).join(' · ')}
      </Typography>
      <StatusCell notification={row} />
    </Stack>
  ),
});

/** The notifications table: deliveries open for everyone, edit and remove for those who may change them. */
export const notificationColumns = ({ canWrite, compact, names, actions }: ColumnOptions): GridColDef<Notification>[] => [
  ...(compact ? [summary(names)] : wide(names)),
  {
    field: 'actions',
    headerName: 'Actions',
    width: canWrite ? (compact ? 56 : 130) : 70,
    ...fixed,
    // Too narrow on a phone for its title, which stays for screen readers.
    ...(compact ? { renderHeader: () => <Box component="span" sx={visuallyHidden}>Actions</Box> } : {}),
    renderCell: ({ row }) => (
      <Box sx={{ display: 'flex', flexDirection: compact ? 'column' : 'row', alignItems: 'center', gap: 0.5 }}>
        <Tooltip title="Deliveries">
          <IconButton size="small" aria-label={`Deliveries of ${row.destination}`} onClick={() => { actions.deliveries(row); }}>
            <HistoryOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        {canWrite && (
          <EditRemoveButtons
            editLabel={`Edit ${row.destination}`}
            removeLabel={`Remove ${row.destination}`}
            onEdit={() => { actions.edit(row); }}
            onRemove={() => { actions.remove(row); }}
          />
        )}
      </Box>
    ),
  },
];
