import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { NumberTypeCheck } from '@parley/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { checkNumberTypesQuestion, isFinished, numberTypeProgressText, numberTypeSummary } from './numberTypeCheckText';

/** How often the dialog asks how far the check has come. */
const CHECK_REFRESH_MS = 1000;

interface CheckNumberTypesDialogProps {
  accountId: string;
  ids: readonly string[];
  onClose: () => void;
  /** The check finished: the table shows the new types. */
  onFinished: () => void;
}

const Progress = ({ check }: { check: NumberTypeCheck }) => (
  <>
    <LinearProgress
      variant="determinate"
      value={check.total === 0 ? 100 : (100 * check.processed) / check.total}
      aria-label="Checking number types"
      sx={{ my: 2 }}
    />
    <Typography>{numberTypeProgressText(check)}</Typography>
    {isFinished(check) && (
      <ul aria-label="Number type check result" style={{ paddingLeft: 20 }}>
        {numberTypeSummary(check).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    )}
  </>
);

/**
 * "Check number types" for the selected contacts: asks with the price, starts the check, then follows it
 * until it finishes (docs/decisions.md, "Check number types"). Closing the dialog leaves the check running.
 */
export const CheckNumberTypesDialog = ({ accountId, ids, onClose, onFinished }: CheckNumberTypesDialogProps) => {
  const api = useApiClient();
  const titleId = useId();
  const base = `/v1/accounts/${accountId}/contacts/numbertypes`;
  const start = useMutation({
    mutationFn: async () => (await api.post<{ data: NumberTypeCheck }>(base, { ids })).data,
  });
  const started = start.data ?? null;
  const progress = useQuery({
    queryKey: ['accounts', accountId, 'numberTypeChecks', started?.id],
    enabled: started !== null,
    queryFn: async ({ signal }) => (await api.get<{ data: NumberTypeCheck }>(`${base}/${started?.id ?? ''}`, { signal })).data,
    refetchInterval: (query) => (query.state.data !== undefined && isFinished(query.state.data) ? false : CHECK_REFRESH_MS),
  });
  const check = progress.data ?? started;
  const finished = check !== null && isFinished(check);
  // Once per check, whatever the parent hands in on later renders.
  const told = useRef(false);
  useEffect(() => {
    if (!finished || told.current) return;
    told.current = true;
    onFinished();
  }, [finished, onFinished]);

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Check Number Types</DialogTitle>
      <DialogContent>
        {check === null ? <DialogContentText>{checkNumberTypesQuestion(ids.length)}</DialogContentText> : <Progress check={check} />}
        {start.isError && <ErrorAlert message={errorMessage(start.error)} />}
        {progress.isError && <ErrorAlert message={errorMessage(progress.error)} />}
      </DialogContent>
      {check === null ? (
        <DialogFooter
          label="Check"
          onCancel={onClose}
          pending={start.isPending}
          onAction={() => {
            start.mutate();
          }}
        />
      ) : (
        <DialogActions>
          {/* While it runs, closing only hides it: the check goes on. */}
          <Button onClick={onClose}>{finished ? 'Close' : 'Hide'}</Button>
        </DialogActions>
      )}
    </Dialog>
  );
};
