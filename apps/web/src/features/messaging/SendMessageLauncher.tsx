import { can } from '@parley/shared';
import { Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useOptionalSession } from '../../session/sessionContext';
import { LazySendMessageDialog } from './lazySendMessageDialog';

/** The query flag the Send Message quick action adds to the current page's address. */
export const SEND_MESSAGE_PARAM = 'sendMessage';
export const sendMessageTarget = `?${SEND_MESSAGE_PARAM}=1`;

/**
 * Opens the Send Message dialog over whatever page is shown when the address carries ?sendMessage=1 (the quick
 * action), then drops the flag so a reload does not open it again. Mounted once, in the app's frame.
 */
export const SendMessageLauncher = () => {
  const session = useOptionalSession();
  const account = session?.account ?? null;
  const [searchParams, setSearchParams] = useSearchParams();
  const [open, setOpen] = useState(false);
  const wanted = searchParams.get(SEND_MESSAGE_PARAM) === '1';
  const allowed = account !== null && can(account.user.role, 'messages.send');

  useEffect(() => {
    if (!wanted) return;
    if (allowed) setOpen(true);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(SEND_MESSAGE_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [wanted, allowed, setSearchParams]);

  if (!open || account === null) return null;
  return (
    <Suspense fallback={null}>
      <LazySendMessageDialog
        accountId={account.id}
        onClose={() => {
          setOpen(false);
        }}
      />
    </Suspense>
  );
};
