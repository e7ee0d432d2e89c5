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
import {
  conversationTitle,
  lastMessageErrorText,
  lastMessageSummary,
  messageTime,
  statusColour,
  statusLabel,
} from '../../inbox/format';
import { conversationPath } from './paths';

const ContactCell = ({ row }: { row: Conversation }) => (
  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%', minWidth: 0 }}>
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
      {conversationTitle(row)}
    </Link>
    {row.unread.length > 0 && (
      <Chip size="small" color="primary" label={`${String(row.unread.length)} unread`} sx={{ height: 20, fontWeight: 600 }} />
    )}
    {row.contact.optedOut !== null && <Chip size="small" variant="outlined" label="Opted out" sx={{ height: 20 }} />}
    {row.contact.blocked !== null && <Chip size="small" variant="outlined" label="Blocked" sx={{ height: 20 }} />}
  </Stack>
);

const LastMessageCell = ({ row }: { row: Conversation }) => {
  const last = row.lastMessage;
  const errorText = lastMessageErrorText(last);
  const Direction = last?.outgoing === true ? CallMadeOutlined : CallReceivedOutlined;
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', height: '100%', minWidth: 0 }}>
      {last !== null && <Direction fontSize="small" color="action" titleAccess={last.outgoing ? 'Sent' : 'Received'} />}
      {errorText !== null && (
        <Tooltip title={errorText}>
          <ErrorOutline fontSize="small" color="error" aria-label={errorText} role="img" />
        </Tooltip>
      )}
      <Typography variant="body2" noWrap title={last?.message} color={last === null ? 'text.secondary' : 'inherit'} sx={{ fontWeight: 'inherit' }}>
        {lastMessageSummary(last)}
      </Typography>
    </Stack>
  );
};

/** The columns of the conversation table; the server orders by the latest activity, so none sorts. */
export function conversationColumns(): GridColDef<Conversation>[] {
  return [
    {
      field: 'contact',
      headerName: 'Contact',
      flex: 1.2,
      minWidth: 200,
      valueGetter: (_value, row) => conversationTitle(row),
      renderCell: ({ row }) => <ContactCell row={row} />,
    },
    { field: 'mobile', headerName: 'Number', flex: 0.8, minWidth: 140, valueGetter: (_value, row) => row.contact.mobile },
    { field: 'group', headerName: 'Group', flex: 0.6, minWidth: 110, valueGetter: (_value, row) => row.group?.name ?? '' },
    {
      field: 'lastMessage',
      headerName: 'Last Message',
      flex: 2,
      minWidth: 240,
      valueGetter: (_value, row) => lastMessageSummary(row.lastMessage),
      renderCell: ({ row }) => <LastMessageCell row={row} />,
    },
    {
      field: 'status',
      headerName: 'Status',
      width: 130,
      valueGetter: (_value, row) => row.lastMessage?.status ?? '',
      renderCell: ({ row }) =>
        row.lastMessage === null ? null : (
          <Chip
            size="small"
            variant="outlined"
            color={statusColour(row.lastMessage.status, row.lastMessage.error !== null)}
            label={statusLabel(row.lastMessage.status)}
          />
        ),
    },
    {
      field: 'time',
      headerName: 'Time',
      width: 170,
      valueGetter: (_value, row) => row.lastMessage?.created ?? row.updated.at,
      renderCell: ({ row }) => messageTime(row.lastMessage?.created ?? row.updated.at),
    },
  ];
}
