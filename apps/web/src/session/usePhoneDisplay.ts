import { displayName, formatPhoneNumber, type NamedContact } from '@parley/shared';
import { useMemo } from 'react';
import { useAccount } from './queries';
import { useOptionalSession } from './sessionContext';

export interface PhoneDisplay {
  /** The chosen account's default country; null until the account has loaded (numbers read international then). */
  country: string | null;
  /** An E.164 number as a person reads it (national for the account's country, international otherwise). */
  phone: (e164: string) => string;
  /** A contact's name, else its formatted number. */
  name: (contact: NamedContact) => string;
}

/** Numbers and contact names as the chosen account shows them (the shared formatPhoneNumber and displayName). */
export const usePhoneDisplay = (): PhoneDisplay => {
  const session = useOptionalSession();
  const account = useAccount(session?.account?.id ?? null);
  const country = account.data?.defaults.country.code ?? null;
  return useMemo(
    () => ({
      country,
      phone: (e164: string) => formatPhoneNumber(e164, country),
      name: (contact: NamedContact) => displayName(contact, country),
    }),
    [country],
  );
};
