import IconButton from '@mui/material/IconButton';
import type { Profile } from '@parley/shared';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useSnackbar } from '../../components/snackbarContext';
import type { AccountMenuAction } from './AccountMenuList';

// The menu and the profile dialog load on first use, keeping them out of every page's first load.
const AccountMenuList = lazy(() => import('./AccountMenuList').then((m) => ({ default: m.AccountMenuList })));
const ProfileDialog = lazy(() => import('../../features/identity/ProfileDialog').then((m) => ({ default: m.ProfileDialog })));

interface AccountMenuProps {
  profile: Profile;
  logout: () => void;
  icon: ReactNode;
  /** Opens the Groups list; absent when the menu does not offer it. */
  onGroups?: () => void;
  /** A compact top bar: the account's name and its entries move into the menu. */
  accountName?: string;
  leading?: readonly AccountMenuAction[];
}

/** Profile, Groups, Help Centre, Feature Requests, Switch Account and Logout behind the person icon (and on a phone what the top bar has no room for). */
export const AccountMenu = ({ profile, logout, icon, onGroups, accountName, leading }: AccountMenuProps) => {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const snackbar = useSnackbar();

  return (
    <>
      <IconButton
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-controls={anchor === null ? undefined : menuId}
        aria-expanded={anchor !== null}
        onClick={(event) => {
          setAnchor(event.currentTarget);
        }}
        edge="end"
      >
        {icon}
      </IconButton>
      {anchor !== null && (
        <Suspense fallback={null}>
          <AccountMenuList
            id={menuId}
            anchor={anchor}
            logout={logout}
            onGroups={onGroups}
            accountName={accountName}
            leading={leading}
            onProfile={() => {
              setProfileOpen(true);
            }}
            onClose={() => {
              setAnchor(null);
            }}
          />
        </Suspense>
      )}
      {profileOpen && (
        <Suspense fallback={null}>
          <ProfileDialog
            mode="edit"
            profile={profile}
            onCancel={() => {
              setProfileOpen(false);
            }}
            onSaved={() => {
              setProfileOpen(false);
              snackbar.show('Profile saved');
            }}
          />
        </Suspense>
      )}
    </>
  );
};
