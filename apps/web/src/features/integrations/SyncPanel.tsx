import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Integration } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { syncActive, useSynchronize } from './queries';
import { SyncSummary } from './SyncSummary';

/** Synchronize and (where the provider has tags) Synchronize tags, with each kind's progress and last summary. */
export const SyncPanel = ({ accountId, integration, canManage, tags = true }: { accountId: string; integration: Integration; canManage: boolean; tags?: boolean }) => {
  const synchronize = useSynchronize(accountId, integration.integration);
  const running = syncActive(integration.syncs.contacts) || syncActive(integration.syncs.tags);
  const busy = running || synchronize.isPending || integration.status !== 'connected';
  return (
    <Stack spacing={2}>
      <Typography variant="h2">Synchronization</Typography>
      {synchronize.isError && <ErrorAlert message={errorMessage(synchronize.error)} />}
      {canManage && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <Button variant="contained" disabled={busy} onClick={() => { synchronize.mutate('synchronize'); }}>
            Synchronize
          </Button>
          {tags && (
            <Button variant="outlined" disabled={busy} onClick={() => { synchronize.mutate('synchronizetags'); }}>
              Synchronize tags
            </Button>
          )}
        </Stack>
      )}
      <SyncSummary label="Contacts" sync={integration.syncs.contacts} />
      {tags && <SyncSummary label="Tags" sync={integration.syncs.tags} />}
    </Stack>
  );
};
