import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import IconButton from '@mui/material/IconButton';
import { WEB_PUSH_DENIED_MESSAGE } from '@parley/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useApiClient } from '../api/apiContext';
import { ApiError } from '../api/client';
import { useSnackbar } from '../components/snackbarContext';
import { useOptionalSession } from '../session/sessionContext';
import {
  currentState,
  disableNotifications,
  enableNotifications,
  fetchPublicKey,
  isPushSupported,
  renewRegistration,
  warnUnsupported,
  type WebPushState,
} from './webPush';
import { isNavigateMessage } from './webPushNotification';

const labels: Record<Exclude<WebPushState, 'unsupported' | 'unavailable'>, string> = {
  off: 'Enable notifications',
  on: 'Notifications are on: turn them off',
  denied: 'Notifications are blocked for this site in the browser',
};

const NOT_CHANGED_MESSAGE = 'Notifications could not be changed in this browser. Please try again later.';

/** A click on a notification takes an open window to the conversation through the router (no reload). */
const useNotificationNavigation = (): void => {
  const navigate = useNavigate();
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if (!isNavigateMessage(event.data)) return;
      void navigate(event.data.url);
      event.ports[0]?.postMessage('done');
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => {
      navigator.serviceWorker.removeEventListener('message', onMessage);
    };
  }, [navigate]);
};

/**
 * The top bar's bell: new incoming messages of the account as the browser's notifications. It shows
 * only where the browser and the server can push, and keeps the registration with the chosen account.
 */
export const WebPushButton = () => {
  const session = useOptionalSession();
  const accountId = session?.account?.id ?? null;
  const api = useApiClient();
  const snackbar = useSnackbar();
  const supported = isPushSupported();
  const [state, setState] = useState<WebPushState | null>(null);
  const [busy, setBusy] = useState(false);
  useNotificationNavigation();

  const key = useQuery({
    queryKey: ['webpush', accountId],
    enabled: supported && accountId !== null,
    staleTime: Infinity,
    queryFn: ({ signal }) => fetchPublicKey(api, accountId ?? '', signal),
  });
  const publicKey = key.data;

  useEffect(() => {
    if (!supported) warnUnsupported();
  }, [supported]);

  useEffect(() => {
    if (accountId === null || publicKey === undefined) return;
    let cancelled = false;
    const sync = async () => {
      // Signed in or switched account with notifications on: this account and person get them now.
      if (publicKey !== null) await renewRegistration(api, accountId, publicKey).catch(() => false);
      const next = await currentState(publicKey);
      if (!cancelled) setState(next);
    };
    void sync();
    return () => {
      cancelled = true;
    };
  }, [api, accountId, publicKey]);

  if (accountId === null || publicKey === undefined || publicKey === null || state === null || state === 'unsupported' || state === 'unavailable') {
    return null;
  }

  const toggle = async () => {
    setBusy(true);
    try {
      if (state === 'on') {
        await disableNotifications(api, accountId);
        setState('off');
        return;
      }
      const outcome = await enableNotifications(api, accountId, publicKey);
      if (outcome === 'denied') snackbar.show(WEB_PUSH_DENIED_MESSAGE);
      setState(await currentState(publicKey));
    } catch (error) {
      // The API's refusals say why; the browser's (its push service unreachable) are for the console.
      if (error instanceof ApiError) snackbar.show(error.message);
      else {
        console.warn('notifications could not be changed', error);
        snackbar.show(NOT_CHANGED_MESSAGE);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <IconButton
      aria-label={labels[state]}
      title={labels[state]}
      aria-pressed={state === 'on'}
      disabled={busy}
      onClick={() => void toggle()}
      data-testid="web-push-button"
    >
      {state === 'on' ? <NotificationsActiveIcon /> : state === 'denied' ? <NotificationsOffIcon /> : <NotificationsNoneIcon />}
    </IconButton>
  );
};
