import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { can, templateWebhookIntegrationNames, type Role, type Template } from '@parley/shared';
import { useId, useMemo, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useGroups } from '../groups';
import { useSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneNumbers } from '../phoneNumbers';
import { useAccountUsers } from '../accounts';
import { useTemplateWebhookLinks } from './queries';

interface WebhookLinksDialogProps {
  accountId: string;
  template: Template;
  role: Role;
  onClose: () => void;
}

/**
 * The web-hook links of a Web template: one per integration (HubSpot, ActiveCampaign), for the member the
 * messages go out as (administrators may choose another member who may send) and the group or number that
 * sends them. The server signs each link; whoever holds one can send the template.
 */
export const WebhookLinksDialog = ({ accountId, template, role, onClose }: WebhookLinksDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const { profile } = useSession();
  const isAdministrator = role === 'Administrator';
  const [user, setUser] = useState(profile.id);
  const [group, setGroup] = useState('');
  const users = useAccountUsers(accountId);
  const groups = useGroups(accountId);
  const numbers = usePhoneNumbers(accountId);
  const links = useTemplateWebhookLinks(accountId, template.id, user, group);
  const senders = useMemo(
    () => (users.data ?? []).filter((u) => u.status === 'active' && can(u.role, 'messages.send')),
    [users.data],
  );
  const display = usePhoneDisplay();
  const activeNumbers = useMemo(() => (numbers.data ?? []).filter((n) => n.status === 'active'), [numbers.data]);

  const copy = (link: string): void => {
    navigator.clipboard.writeText(link).then(
      () => {
        snackbar.show('Link copied');
      },
      () => {
        snackbar.show('The link could not be copied: select it and copy it by hand');
      },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>Web-hook Links: {template.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            Give the link to the integration's web-hook action: each call sends this template to the contact it names. Whoever
            holds a link can send at the account's expense, so keep it like a password; removing the template stops its links.
          </DialogContentText>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {isAdministrator && (
              <TextField
                select
                label="Send as"
                fullWidth
                value={senders.some((u) => u.id === user) ? user : ''}
                onChange={(event) => {
                  setUser(event.target.value);
                }}
                helperText="A member who may send messages"
              >
                {senders.map((u) => (
                  <MenuItem key={u.id} value={u.id}>
                    {`${u.firstName} ${u.lastName}`.trim() || u.email}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              select
              label="Send from"
              fullWidth
              value={group}
              onChange={(event) => {
                setGroup(event.target.value);
              }}
              helperText="The numbers the messages go out from"
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">The account's numbers</MenuItem>
              {(groups.data?.data.length ?? 0) > 0 && <ListSubheader>Groups</ListSubheader>}
              {(groups.data?.data ?? []).map((g) => (
                <MenuItem key={g.id} value={g.id}>
                  {g.name}
                </MenuItem>
              ))}
              {activeNumbers.length > 0 && <ListSubheader>Phone numbers</ListSubheader>}
              {activeNumbers.map((n) => (
                <MenuItem key={n.id} value={n.id}>
                  {n.name === '' ? display.phone(n.number) : `${display.phone(n.number)} (${n.name})`}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {links.isPending && <Skeleton variant="rounded" height={120} />}
          {links.isError && <ErrorAlert message={errorMessage(links.error)} onRetry={() => void links.refetch()} />}
          {links.data?.available === false && (
            <Alert severity="warning">
              This server has no secrets key (SECRETS_KEY) to sign links with, so it cannot make web-hook links. Ask whoever runs it
              to set one.
            </Alert>
          )}
          {links.data?.links.map(({ integration, link }) => (
            <TextField
              key={integration}
              label={templateWebhookIntegrationNames[integration]}
              value={link}
              fullWidth
              slotProps={{
                htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace', fontSize: '0.85rem' } },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={`Copy the ${templateWebhookIntegrationNames[integration]} link`}
                        onClick={() => {
                          copy(link);
                        }}
                      >
                        <ContentCopyOutlined fontSize="small" />
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
