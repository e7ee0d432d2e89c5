import { lazy } from 'react';

/** The Send Message dialog, loaded in a chunk of its own the first time it is shown. */
export const LazySendMessageDialog = lazy(() => import('./SendMessageDialog').then((m) => ({ default: m.SendMessageDialog })));
