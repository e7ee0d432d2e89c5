import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { NotificationAttempt } from '@parley/shared';
import type { ReactNode } from 'react';
import { eventTypeLabel } from '../eventTypes';
import type { DeliveryRecord } from '../queries';
import { attemptOutcome, deliveryStatusColours, deliveryStatusLabels, durationText, prettyBody, timeText } from './deliveryFormat';

const Code = ({ label, children }: { label: string; children: string }) => (
  <Box
    component="pre"
    aria-label={label}
    sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.8rem', overflow: 'auto', maxHeight: 320, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
  >
    {children}
  </Box>
);

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div" sx={{ wordBreak: 'break-all' }}>
      {children}
    </Typography>
  </Box>
);

const Attempt = ({ attempt }: { attempt: NotificationAttempt }) => (
  <Box component="li" sx={{ mb: 1.5 }}>
    <Typography variant="body2">
      <strong>#{attempt.attempt}</strong> {timeText(attempt.at)} · {attemptOutcome(attempt)} · {durationText(attempt.durationMs)}
    </Typography>
    {attempt.statusCode !== undefined && attempt.error !== undefined && (
      <Typography variant="body2" color="error">
        {attempt.error}
      </Typography>
    )}
    {attempt.responseHead !== undefined && attempt.responseHead !== '' && (
      <Box sx={{ mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          The answer's first bytes
        </Typography>
        <Code label={`Answer to attempt ${String(attempt.attempt)}`}>{attempt.responseHead}</Code>
      </Box>
    )}
  </Box>
);

/** One delivery: its state, the body sent, and every attempt with the answer's first bytes. */
export const DeliveryDetails = ({ delivery }: { delivery: DeliveryRecord }) => (
  <Stack spacing={2}>
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' }, gap: 1.5 }}>
      <Fact label="Event">{eventTypeLabel(delivery.eventType)}</Fact>
      <Fact label="Status">
        <Chip size="small" variant="outlined" color={deliveryStatusColours[delivery.status]} label={deliveryStatusLabels[delivery.status]} />
      </Fact>
      <Fact label="Created">{timeText(delivery.created.at)}</Fact>
      {delivery.status === 'pending' && <Fact label="Next attempt">{timeText(delivery.nextAttemptAt)}</Fact>}
      {delivery.deliveredAt !== undefined && <Fact label="Delivered">{timeText(delivery.deliveredAt)}</Fact>}
      <Fact label="Event id">{delivery.eventId}</Fact>
    </Box>
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        Body sent
      </Typography>
      <Code label="Body sent">{prettyBody(delivery.body)}</Code>
    </Box>
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        Attempts ({delivery.attemptLog.length})
      </Typography>
      {delivery.attemptLog.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Not tried yet.
        </Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          {delivery.attemptLog.map((attempt) => (
            <Attempt key={attempt.attempt} attempt={attempt} />
          ))}
        </Box>
      )}
    </Box>
  </Stack>
);
