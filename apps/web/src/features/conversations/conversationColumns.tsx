import CallMadeOutlined from '@mui/icons-material/CallMadeOutlined';
import CallReceivedOutlined from '@mui/icons-material/CallReceivedOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { Conversation } from '@parley/shared';
import { Link as RouterLink } from 'react-router';
import { lastMessageErrorText, lastMessageSummary, messageTime, statusColour, statusLabel } from './inbox/format';
import type { PhoneDisplay } from '../../session/usePhoneDisplay';
import { conversationPath } from './paths';

const ContactLink = ({ row, name }: { row: Conversation; name: string }) => (
  <Link
    component={RouterLink}
    to={conversationPath(row.id)}
    color="inherit"
    underline="hover"
    noWrap
    // The row opens it as well; one navigation is enough.
    onClick={(event) => {
      event.stopPropagation();
    }}
  >
    {name}
  </Link>
);

const UnreadChip = ({ row }: { row: Conversation }) =>
  row.unread.length > 0 ? (
    <Chip size="small" color="primary" label={`${String(row.unread.length)} unread`} sx={{ height: 20, fontWeight: 600, flexShrink: 0 }} />
  ) : null;

const ContactCell = ({ row, name }: { row: Conversation; name: string }) => (
  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%', minWidth: 0 }}>
    <ContactLink row={row} name={name} />
    <UnreadChip row={row} />
    {row.contact.optedOut !== undefined && <Chip size="small" variant="outlined" label="Opted out" sx={{ height: 20 }} />}
    {row.contact.blocked !== undefined && <Chip size="small" variant="outlined" label="Blocked" sx={{ height: 20 }} />}
  </Stack>
);

const LastMessageLine = ({ row }: { row: Conversation }) => {
  const last = row.lastMessage;
  const errorText = lastMessageErrorText(last);
  const Direction = last?.outgoing === true ? CallMadeOutlined : CallReceivedOutlined;
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
      {last !== undefined && <Direction fontSize="small" color="action" titleAccess={last.outgoing ? 'Sent' : 'Received'} />}
      {errorText !== null && (
        <Tooltip title={errorText}>
          <ErrorOutline fontSize="small" color="error" aria-label={errorText} role="img" />
        </Tooltip>
      )}
      <Typography variant="body2" noWrap title={last?.message} color={last === undefined ? 'text.secondary' : 'inherit'} sx={{ fontWeight: 'inherit' }}>
        {lastMessageSummary(last)}
      </Typography>
    </Stack>
  );
};

const lastActivity = (row: Conversation): string => row.lastMessage?.created.at ?? row.updated.at;

/** A phone's list: one cell per conversation, the name with its unread count and time over the last message. */
const CompactCell = ({ row, name }: { row: Conversation; name: string }) => (
  // The grid's cells take the row's height as their line height: two lines need their own.
  <Stack sx={{ justifyContent: 'center', height: '100%', minWidth: 0, gap: 0.5, lineHeight: 1.5 }}>
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', minWidth: 0 }}>
      <ContactLink row={row} name={name} />
      <UnreadChip row={row} />
      <Typography variant="caption" color="text.secondary" noWrap sx={{ ml: 'auto', pl: 1, flexShrink: 0, fontWeight: 'inherit' }}>
        {messageTime(lastActivity(row))}
      </Typography>
    </Stack>
    <LastMessageLine row={row} />
  </Stack>
);

/**
 * The columns of the conversation table; the server orders by the latest activity, so none sorts. On a
 * phone (`compact`) one column holds each conversation, as a messaging app lists them.
 */
export function conversationColumns(display: PhoneDisplay, compact = false): GridColDef<Conversation>[] {
  const name = (row: Conversation): string => display.name(row.contact);
  if (compact) {
    return [
      {
        field: 'contact',
        headerName: 'Conversation',
        flex: 1,
        minWidth: 0,
        valueGetter: (_value, row) => name(row),
        renderCell: ({ row }) => <CompactCell row={row} name={name(row)} />,
      },
    ];
  }
  return [
    {
      field: 'contact',
      headerName: 'Contact',
      flex: 1.2,
      minWidth: 200,
      valueGetter: (_value, row) => name(row),
      renderCell: ({ row }) => <ContactCell row={row} name={name(row)} />,
    },
    { field: 'mobile', headerName: 'Number', flex: 0.8, minWidth: 150, valueGetter: (_value, row) => display.phone(row.contact.mobile.number) },
    { field: 'group', headerName: 'Group', flex: 0.6, minWidth: 110, valueGetter: (_value, row) => row.group?.name ?? '' },
    {
      field: 'lastMessage',
      headerName: 'Last Message',
      flex: 2,
      minWidth: 240,
      valueGetter: (_value, row) => lastMessageSummary(row.lastMessage),
      renderCell: ({ row }) => (
        <Stack sx={{ justifyContent: 'center', height: '100%', minWidth: 0 }}>
          <LastMessageLine row={row} />
        </Stack>
      ),
    },
    {
      field: 'status',
      headerName: 'Status',
      width: 130,
      valueGetter: (_value, row) => row.lastMessage?.status ?? '',
      renderCell: ({ row }) =>
        row.lastMessage === undefined ? null : (
          <Chip
            size="small"
            variant="outlined"
            color={statusColour(row.lastMessage.status, row.lastMessage.error !== undefined)}
            label={statusLabel(row.lastMessage.status)}
          />
        ),
    },
    {
      field: 'time',
      headerName: 'Time',
      width: 170,
      valueGetter: (_value, row) => lastActivity(row),
      renderCell: ({ row }) => messageTime(lastActivity(row)),
    },
  ];
}
