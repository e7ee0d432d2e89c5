import Box from '@mui/material/Box';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { LoadingScreen } from '../../auth/AuthGate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { InvitationWaiting } from '../../features/accounts/InvitationWaiting';
import { useAccounts, useOpenInvitations, useProfile } from '../../session/queries';
import {
  automaticAccount,
  chooserPaths,
  forgetAccount,
  selectAccount as storeSelection,
  selectedAccountId,
  takeRedirect,
} from '../../session/selection';
import { SessionContext, type Session } from '../../session/sessionContext';
import { TermsDialog } from '../../features/identity/TermsDialog';

const ProfileDialog = lazy(() => import('../../features/identity/ProfileDialog').then((m) => ({ default: m.ProfileDialog })));
const CreateAccountDialog = lazy(() =>
  import('../../features/accounts/CreateAccountDialog').then((m) => ({ default: m.CreateAccountDialog })),
);

/**
 * After sign-in, the first-login checks in order: terms (No signs out), profile (Cancel
 * signs out), and a new account when the user has none. Then the pages get the session.
 */
export const SessionGate = () => {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const profile = useProfile();
  const accounts = useAccounts();
  const [selected, setSelected] = useState(selectedAccountId);
  const [createDismissed, setCreateDismissed] = useState(false);
  const logout = useCallback(() => {
    void navigate('/logout');
  }, [navigate]);

  const list = useMemo(() => accounts.data?.data ?? [], [accounts.data]);
  // One account: chosen without asking (it is stored, and a chooser page moves on to where the user was going).
  const automatic = accounts.data === undefined ? null : automaticAccount(selected, list.map((a) => a.id));
  const effective = automatic ?? selected;
  const session = useMemo<Session | null>(() => {
    if (profile.data === undefined || accounts.data === undefined) return null;
    const account = list.find((a) => a.id === effective) ?? null;
    return {
      profile: profile.data,
      accounts: list,
      account,
      selectAccount: (id) => {
        storeSelection(id);
        setSelected(id);
      },
      refreshAccounts: () => void accounts.refetch(),
      logout,
    };
  }, [profile.data, accounts, list, effective, logout]);

  // No account yet and an unverified address: an open invitation is waiting for the verification, which the
  // user is told instead of being asked to create an account (unless they choose to).
  const [createOwn, setCreateOwn] = useState(false);
  const unverifiedNewcomer = session !== null && session.accounts.length === 0 && !session.profile.emailVerified;
  const invitations = useOpenInvitations(unverifiedNewcomer && !createDismissed && !createOwn);

  const onChooser = chooserPaths.includes(pathname);
  useEffect(() => {
    if (automatic === null) return;
    storeSelection(automatic);
    setSelected(automatic);
    if (onChooser) void navigate(takeRedirect() ?? '/', { replace: true });
  }, [automatic, onChooser, navigate]);

  const staleSelection = session !== null && selected !== null && session.account === null;
  useEffect(() => {
    // The chosen account is gone (removed from it, or closed): forget it.
    if (staleSelection) forgetAccount();
  }, [staleSelection]);

  if (profile.isError || accounts.isError) {
    return (
      <Box sx={{ p: 3, maxWidth: 560, mx: 'auto' }}>
        <ErrorAlert message={errorMessage(profile.error ?? accounts.error)} />
      </Box>
    );
  }
  if (session === null) return <LoadingScreen />;
  if (session.profile.tacAccepted === null) return <TermsDialog onDecline={logout} />;
  if (session.profile.mobile === null) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <ProfileDialog profile={session.profile} onCancel={logout} />
      </Suspense>
    );
  }
  const mustCreate = session.accounts.length === 0 && !createDismissed;
  const asksInvitations = mustCreate && unverifiedNewcomer && !createOwn;
  if (asksInvitations && invitations.isPending) return <LoadingScreen />;
  const waiting = asksInvitations ? (invitations.data ?? []) : [];
  return (
    <SessionContext value={session}>
      {waiting.length > 0 ? (
        <InvitationWaiting
          invitations={waiting}
          refreshing={profile.isFetching || accounts.isFetching || invitations.isFetching}
          onRefresh={() => {
            void profile.refetch();
            void accounts.refetch();
            void invitations.refetch();
          }}
          onCreateOwn={() => {
            setCreateOwn(true);
          }}
          onLogout={logout}
        />
      ) : mustCreate ? (
        <Suspense fallback={<LoadingScreen />}>
          <CreateAccountDialog
            cancelLabel="Not now"
            onCancel={() => {
              setCreateDismissed(true);
              void navigate('/accounts');
            }}
            onCreated={(account) => {
              session.selectAccount(account.id);
              void navigate(takeRedirect() ?? '/', { replace: true });
            }}
          />
        </Suspense>
      ) : (
        <Outlet />
      )}
    </SessionContext>
  );
};
