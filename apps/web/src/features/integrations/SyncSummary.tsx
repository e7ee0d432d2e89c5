import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IntegrationSync } from '@parley/shared';
import { syncActive } from './queries';

const statusText: Record<IntegrationSync['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  waiting: 'Paused: the provider asked to slow down',
  completed: 'Completed',
  failed: 'Failed',
};

const when = (iso: string | undefined): string => (iso === undefined ? '' : new Date(iso).toLocaleString());

/** One sync: its progress while it runs, then what it did (created, updated, skipped with the reasons). */
export const SyncSummary = ({ label, sync }: { label: string; sync: IntegrationSync | undefined }) => {
  if (sync === undefined) {
    return (
      <Typography variant="body2" color="text.secondary">
        {label}: never synchronized
      </Typography>
    );
  }
  const { done, total } = sync.progress;
  const active = syncActive(sync);
  return (
    <Stack spacing={0.5} role="group" aria-label={`${label} sync`}>
      <Typography variant="subtitle2">
        {label}: {statusText[sync.status]}
        {sync.finishedAt === undefined ? '' : ` ${when(sync.finishedAt)}`}
      </Typography>
      {active && <LinearProgress variant={total === undefined || total === 0 ? 'indeterminate' : 'determinate'} value={total ? Math.min(100, (done / total) * 100) : 0} />}
      <Typography variant="body2">
        {`${String(done)}${total === undefined ? '' : ` of ${String(total)}`} records: ${String(sync.created)} created, ${String(sync.updated)} updated, ${String(sync.skipped)} skipped`}
      </Typography>
      {sync.skippedReasons.map((r) => (
        <Typography key={r.reason} variant="body2" color="text.secondary">
          {`${r.reason}: ${String(r.count)}${r.examples.length === 0 ? '' : ` (${r.examples.join(', ')})`}`}
        </Typography>
      ))}
      {sync.error !== undefined && (
        <Typography variant="body2" color="error">
          {sync.error}
        </Typography>
      )}
    </Stack>
  );
};
