import type { AccountSummary, Profile } from '@parley/shared';
import { createContext, useContext } from 'react';

export interface Session {
  profile: Profile;
  accounts: readonly AccountSummary[];
  /** The chosen account, when the user still belongs to it. */
  account: AccountSummary | null;
  selectAccount: (id: string) => void;
  refreshAccounts: () => void;
  logout: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export const useSession = (): Session => {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession needs the session gate above it');
  return session;
};

/** The session when there is one (layouts shared by open and protected pages). */
export const useOptionalSession = (): Session | null => useContext(SessionContext);
