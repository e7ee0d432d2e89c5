import { can } from '@parley/shared';
import { Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useOptionalSession } from '../../session/sessionContext';
import { useContact } from '../conversations';
import { LazySendMessageDialog } from './lazySendMessageDialog';

/** The query flag the Send Message quick action adds to the current page's address. */
export const SEND_MESSAGE_PARAM = 'sendMessage';
export const sendMessageTarget = `?${SEND_MESSAGE_PARAM}=1`;
/** A contact to send to, with the account it is in (a provider's action link names both). */
const CONTACT_PARAM = 'contact';
const ACCOUNT_PARAM = 'account';

/**
 * Opens the Send Message dialog over whatever page is shown when the address carries ?sendMessage=1 (the quick
 * action), then drops the flag so a reload does not open it again. Mounted once, in the app's frame.
 */
export const SendMessageLauncher = () => {
  const session = useOptionalSession();
  const account = session?.account ?? null;
  const [searchParams, setSearchParams] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [contactId, setContactId] = useState<string | null>(null);
  const wanted = searchParams.get(SEND_MESSAGE_PARAM) === '1';
  const allowed = account !== null && can(account.user.role, 'messages.send');

  useEffect(() => {
    if (!wanted) return;
    if (allowed) setOpen(true);
    // A contact of another account than the one open is not offered: the dialog opens without recipients.
    setContactId(searchParams.get(ACCOUNT_PARAM) === account?.id ? searchParams.get(CONTACT_PARAM) : null);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of [SEND_MESSAGE_PARAM, CONTACT_PARAM, ACCOUNT_PARAM]) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [wanted, allowed, setSearchParams, searchParams, account?.id]);

  if (!open || account === null) return null;
  return (
    <LaunchedDialog
      accountId={account.id}
      contactId={contactId}
      onClose={() => {
        setOpen(false);
        setContactId(null);
      }}
    />
  );
};

/** The dialog, with the named contact as its recipient once it is loaded (none when it cannot be). */
const LaunchedDialog = ({ accountId, contactId, onClose }: { accountId: string; contactId: string | null; onClose: () => void }) => {
  const contact = useContact(accountId, contactId);
  if (contactId !== null && contact.isPending) return null;
  return (
    <Suspense fallback={null}>
      <LazySendMessageDialog accountId={accountId} recipients={contact.data === undefined ? [] : [contact.data]} onClose={onClose} />
    </Suspense>
  );
};
