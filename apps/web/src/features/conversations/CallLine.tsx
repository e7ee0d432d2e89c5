import CallIcon from '@mui/icons-material/Call';
import PhoneMissedIcon from '@mui/icons-material/PhoneMissed';
import VoicemailIcon from '@mui/icons-material/Voicemail';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { callLine, type Call } from '@parley/shared';
import { messageTime } from './inbox/format';

const iconOf = (call: Call) => {
  switch (call.status) {
    case 'voicemail':
      return <VoicemailIcon fontSize="small" color="action" />;
    case 'missed':
    case 'busy':
    case 'failed':
      return <PhoneMissedIcon fontSize="small" color="error" />;
    case 'answered':
    case 'inProgress':
      return <CallIcon fontSize="small" color="action" />;
  }
};

/** A call in the history: an event line between the messages ('Missed call', 'Call answered · 3 min 12 s'), with its time. */
export const CallLine = ({ call }: { call: Call }) => (
  <Stack
    component="article"
    aria-label="Call"
    data-testid="call"
    data-status={call.status}
    direction="row"
    spacing={1}
    sx={{ alignItems: 'center', justifyContent: 'center', flexWrap: 'wrap', color: 'text.secondary', py: 0.5 }}
  >
    {iconOf(call)}
    <Typography variant="body2" sx={{ fontWeight: 500 }}>
      {callLine(call)}
    </Typography>
    <Typography variant="caption" component="time" dateTime={call.startedAt}>
      {messageTime(call.startedAt)}
    </Typography>
    {call.recordingUrl !== undefined && /^https?:\/\//i.test(call.recordingUrl) && (
      <Link variant="caption" href={call.recordingUrl} target="_blank" rel="noopener noreferrer">
        {call.status === 'voicemail' ? 'Listen' : 'Recording'}
      </Link>
    )}
  </Stack>
);
