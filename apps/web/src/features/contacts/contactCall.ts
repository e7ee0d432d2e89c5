import type { Contact, Role } from '@parley/shared';
import { useCallback, useMemo } from 'react';
import { callerNumberOf, useCallAbility, useStartCall } from '../calls';
import { usePhoneNumbers } from '../phoneNumbers';
import type { ContactCall } from './contactRowActions';

export const NO_NUMBER_TO_CALL_FROM = 'The account has no active number to call from';

/**
 * Call in a contact's row (docs/calls.md): from the account's oldest active number, as a conversation's Call
 * comes from the conversation's number. Null when the role may not call.
 */
export function useContactCall(accountId: string, role: Role): { call: ContactCall | null; start: (contact: Pick<Contact, 'mobile'>) => void } {
  const ability = useCallAbility(role);
  const numbers = usePhoneNumbers(accountId);
  const from = callerNumberOf(numbers.data);
  const starter = useStartCall(accountId);
  const reason = ability.disabledReason ?? (from === undefined ? NO_NUMBER_TO_CALL_FROM : null);
  const call = useMemo<ContactCall | null>(() => (ability.allowed ? { disabledReason: reason } : null), [ability.allowed, reason]);
  const fromId = from?.id;
  const { start: startCall } = starter;
  const start = useCallback(
    (contact: Pick<Contact, 'mobile'>) => {
      if (fromId !== undefined) startCall(contact.mobile.number, fromId);
    },
    [fromId, startCall],
  );
  return useMemo(() => ({ call, start }), [call, start]);
}
