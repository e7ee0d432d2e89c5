import { createContext, useContext } from 'react';

/** How long a snackbar stays before it hides itself. */
export const snackbarAutoHideMs = 5000;

export interface SnackbarAction {
  label: string;
  onClick: () => void;
}

export interface SnackbarOptions {
  action?: SnackbarAction;
}

export interface SnackbarApi {
  show: (message: string, options?: SnackbarOptions) => void;
}

export const SnackbarContext = createContext<SnackbarApi | null>(null);

export const useSnackbar = (): SnackbarApi => {
  const api = useContext(SnackbarContext);
  if (api === null) throw new Error('useSnackbar needs a SnackbarProvider above it');
  return api;
};
