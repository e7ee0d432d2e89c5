import Button from '@mui/material/Button';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { SnackbarContext, snackbarAutoHideMs, type SnackbarApi, type SnackbarOptions } from './snackbarContext';

interface Notice extends SnackbarOptions {
  key: number;
  message: string;
}

/** Shows one notice at a time; later ones wait until the current one has gone. */
export const SnackbarProvider = ({ children }: { children: ReactNode }) => {
  const [queue, setQueue] = useState<Notice[]>([]);
  const [closedKey, setClosedKey] = useState<number | null>(null);
  const nextKey = useRef(0);
  const current = queue[0];

  const show = useCallback<SnackbarApi['show']>((message, options = {}) => {
    nextKey.current += 1;
    const notice: Notice = { key: nextKey.current, message, ...options };
    setQueue((waiting) => [...waiting, notice]);
  }, []);
  const api = useMemo<SnackbarApi>(() => ({ show }), [show]);

  const close = (_event?: unknown, reason?: SnackbarCloseReason) => {
    // A click elsewhere on the page should not dismiss a notice the user may not have read.
    if (reason === 'clickaway' || current === undefined) return;
    setClosedKey(current.key);
  };
  const action = current?.action;

  return (
    <SnackbarContext value={api}>
      {children}
      {current && (
        <Snackbar
          key={current.key}
          open={closedKey !== current.key}
          autoHideDuration={snackbarAutoHideMs}
          onClose={close}
          slotProps={{
            transition: {
              onExited: () => {
                setQueue((waiting) => waiting.slice(1));
              },
            },
          }}
          message={current.message}
          action={
            action && (
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  action.onClick();
                  close();
                }}
              >
                {action.label}
              </Button>
            )
          }
        />
      )}
    </SnackbarContext>
  );
};
