import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { NotificationChannel } from '@parley/shared';
import { useState } from 'react';
import { useGroups } from '../../groups';

interface Props {
  accountId: string;
  record: NotificationChannel;
  saving: boolean;
  onSave: (body: { groups: { id: string; settings: Record<string, string> }[]; channelId?: string }) => void;
}

/** The groups a channel hears about (none ticked: every conversation the user sees) and Slack's channel. */
export const ChannelForm = ({ accountId, record, saving, onSave }: Props) => {
  const groups = useGroups(accountId);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(record.groups.map((g) => g.id)));
  const [slackChannel, setSlackChannel] = useState(record.options.availableChannels.find((c) => record.destination?.endsWith(`#${c.name}`) === true)?.id ?? '');
  const toggle = (id: string) => {
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const submit = () => {
    onSave({ groups: [...chosen].map((id) => ({ id, settings: {} })), ...(record.channel === 'slack' && slackChannel !== '' ? { channelId: slackChannel } : {}) });
  };
  return (
    <>
      {record.channel === 'slack' && (
        <TextField select label="Slack channel" value={slackChannel} onChange={(e) => { setSlackChannel(e.target.value); }} sx={{ maxWidth: 360 }}>
          {record.options.availableChannels.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              #{c.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <FormControl component="fieldset">
        <FormLabel component="legend">Groups (none: every conversation you see)</FormLabel>
        <FormGroup>
          {(groups.data?.data ?? []).map((g) => (
            <FormControlLabel key={g.id} control={<Checkbox checked={chosen.has(g.id)} onChange={() => { toggle(g.id); }} />} label={g.name} />
          ))}
        </FormGroup>
      </FormControl>
      <Button variant="contained" onClick={submit} disabled={saving || (record.channel === 'slack' && slackChannel === '')} sx={{ alignSelf: 'flex-start' }}>
        Save
      </Button>
    </>
  );
};
