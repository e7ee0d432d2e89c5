import AccountCircle from '@mui/icons-material/AccountCircle';
import SettingsIcon from '@mui/icons-material/Settings';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { can, showsAccountSettingsIcon, showsUpgradeButton } from '@parley/shared';
import { lazy, Suspense, useState } from 'react';
import { showsGroupsMenu } from '../../features/groups/visibility';
import { useAccount } from '../../session/queries';
import type { Session } from '../../session/sessionContext';
import { AccountMenu } from './AccountMenu';
import type { AccountMenuAction } from './AccountMenuList';
import { isLowBalance, upgradeLabel } from './topBarLabels';

const AccountSettingsDialog = lazy(() =>
  import('../../features/accounts/AccountSettingsDialog').then((m) => ({ default: m.AccountSettingsDialog })),
);

const ChangePlanDialog = lazy(() => import('../../features/billing/ChangePlanDialog').then((m) => ({ default: m.ChangePlanDialog })));

const GroupsDialog = lazy(() => import('../../features/groups/GroupsDialog').then((m) => ({ default: m.GroupsDialog })));

/**
 * The top bar's right side inside an account: Upgrade, account settings and the account menu. On a narrow
 * screen (`compact`) the account's name, Upgrade and Account Settings move into the account menu, whose
 * icon then carries the low-balance dot.
 */
export const AccountActions = ({ session, compact = false }: { session: Session; compact?: boolean }) => {
  const summary = session.account;
  const account = useAccount(summary?.id ?? null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [changingPlan, setChangingPlan] = useState(false);
  // Phone numbers arrive with their own capability; until then none is active.
  const showGroups = summary !== null && showsGroupsMenu(summary.user.role, 0);
  const viewer = summary === null ? null : { role: summary.user.role, isTrial: summary.plan.isTrial };
  const trial = account.data?.trial;
  const low = account.data !== undefined && isLowBalance(account.data.balance);
  const openSettings = () => {
    setSettingsOpen(true);
  };
  // Upgrade lands on Change Plan (docs/decisions.md, "The Upgrade button").
  const openChangePlan = () => {
    setChangingPlan(true);
  };
  const upgrade = viewer !== null && showsUpgradeButton(viewer) && trial !== undefined ? upgradeLabel(trial) : null;
  const showsSettings = viewer !== null && showsAccountSettingsIcon(viewer.role);
  const moved: AccountMenuAction[] = [
    ...(upgrade === null ? [] : [{ label: upgrade, onClick: openChangePlan }]),
    ...(showsSettings ? [{ label: 'Account Settings', ...(low ? { secondary: 'Low balance' } : {}), onClick: openSettings }] : []),
  ];

  return (
    <>
      {!compact && upgrade !== null && (
        <Button variant="contained" color="secondary" size="small" onClick={openChangePlan} sx={{ mr: 1, whiteSpace: 'nowrap' }}>
          {upgrade}
        </Button>
      )}
      {!compact && showsSettings && (
        <IconButton
          aria-label={low ? 'Account settings (low balance)' : 'Account settings'}
          title={low ? 'Account settings: low balance' : 'Account settings'}
          onClick={openSettings}
        >
          <Badge color="error" variant="dot" invisible={!low} data-testid="low-balance-badge">
            <SettingsIcon />
          </Badge>
        </IconButton>
      )}
      <AccountMenu
        profile={session.profile}
        logout={session.logout}
        icon={
          compact ? (
            <Badge color="error" variant="dot" invisible={!(low && showsSettings)} data-testid="low-balance-badge">
              <AccountCircle />
            </Badge>
          ) : (
            <AccountCircle />
          )
        }
        {...(compact ? { accountName: summary?.name, leading: moved } : {})}
        onGroups={
          showGroups
            ? () => {
                setGroupsOpen(true);
              }
            : undefined
        }
      />
      {groupsOpen && summary !== null && (
        <Suspense fallback={null}>
          <GroupsDialog
            accountId={summary.id}
            canManage={can(summary.user.role, 'groups.manage')}
            onClose={() => {
              setGroupsOpen(false);
            }}
          />
        </Suspense>
      )}
      {changingPlan && summary !== null && (
        <Suspense fallback={null}>
          <ChangePlanDialog
            accountId={summary.id}
            onClose={() => {
              setChangingPlan(false);
            }}
          />
        </Suspense>
      )}
      {settingsOpen && summary !== null && (
        <Suspense fallback={null}>
          <AccountSettingsDialog
            accountId={summary.id}
            onClose={() => {
              setSettingsOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
};
