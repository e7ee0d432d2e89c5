import IconButton from '@mui/material/IconButton';
import type { Profile } from '@parley/shared';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import type { AccountMenuAction } from './AccountMenuList';

// The menu and the profile dialog load on first use, keeping them out of every page's first load.
const AccountMenuList = lazy(() => import('./AccountMenuList').then((m) => ({ default: m.AccountMenuList })));
const ProfileSummaryDialog = lazy(() =>
  import('./ProfileSummaryDialog').then((m) => ({ default: m.ProfileSummaryDialog })),
);

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

/** Profile, Switch Account and Logout behind the person icon (and on a phone what the top bar has no room for). */
export const AccountMenu = ({ profile, logout, icon, onGroups, accountName, leading }: AccountMenuProps) => {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);

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
          <ProfileSummaryDialog
            profile={profile}
            onClose={() => {
              setProfileOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
};
