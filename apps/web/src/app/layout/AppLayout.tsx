import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { showsAdminMenu } from '@parley/shared';
import { InboxCacheSync } from '../../features/conversations/inbox/InboxCacheSync';
import { isInboxQuery } from '../../features/conversations/inbox/queryKeys';
import { useHeldCount } from '../../features/messaging/approvals/queries';
import { useLists } from '../../features/lists/queries';
import { useOptionalSession } from '../../session/sessionContext';
import { UnverifiedBanner } from '../../features/identity/UnverifiedBanner';
import { SendMessageLauncher } from '../../features/messaging/SendMessageLauncher';
import { RealtimeProvider } from '../../realtime/RealtimeProvider';
import { useConfig } from '../configContext';
import { drawerWidth } from '../theme';
import { AccountActions } from './AccountActions';
import { defaultMenuContext, menuEntries, menuQuickActions, type MenuActionId } from './menuEntries';
import { PageFallback } from './PageFallback';
import { QuickActions } from './QuickActions';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';

const ListDialog = lazy(() => import('../../features/lists/ListDialog').then((m) => ({ default: m.ListDialog })));

/** The frame of every page inside an account: top bar, side menu, content. */
export const AppLayout = () => {
  const [mobileOpen, setMobileOpen] = useState(false);
  const session = useOptionalSession();
  const account = session?.account ?? null;
  const navigate = useNavigate();
  const [creatingList, setCreatingList] = useState(false);
  // The menu follows the role and plan of the chosen account, and its lists (kept current in the query cache).
  const lists = useLists(account?.id ?? null).data;
  const { simulator } = useConfig();
  // Only administrators see Admin, where held messages are approved.
  const held = useHeldCount(account?.id ?? null, account !== null && showsAdminMenu(account.user.role)).data ?? 0;
  const entries = menuEntries(
    account === null
      ? { ...defaultMenuContext, simulator }
      : {
          role: account.user.role,
          isTrial: account.plan.isTrial,
          hasLists: (lists?.pagination.totalCount ?? 0) > 0,
          lists: lists?.data ?? [],
          simulator,
          heldMessages: held,
        },
  );
  const menuActions: Record<MenuActionId, () => void> = {
    createList: () => {
      setCreatingList(true);
    },
  };
  const onMenuAction = (id: MenuActionId) => {
    menuActions[id]();
  };
  const quickActions = account === null ? [] : menuQuickActions(account.user.role);
  const closeMobile = () => {
    setMobileOpen(false);
  };

  return (
    // One websocket for the signed-in session keeps the inbox and the unread badge live on every page.
    <RealtimeProvider accountId={account?.id ?? null} isLiveQuery={isInboxQuery}>
    <InboxCacheSync accountId={account?.id ?? null} />
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar
        accountName={session?.account?.name ?? null}
        actions={(compact) => (session === null ? null : <AccountActions session={session} compact={compact} />)}
        menuOpen={mobileOpen}
        onMenuClick={() => {
          setMobileOpen(!mobileOpen);
        }}
      />
      <Box component="aside" sx={{ width: { md: drawerWidth }, flexShrink: { md: 0 } }}>
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={closeMobile}
          slotProps={{ paper: { id: 'side-menu' } }}
          sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: drawerWidth } }}
        >
          <Toolbar />
          <QuickActions actions={quickActions} onNavigate={closeMobile} />
          <SideMenu entries={entries} onNavigate={closeMobile} onAction={onMenuAction} />
        </Drawer>
        <Drawer
          variant="permanent"
          open
          sx={{ display: { xs: 'none', md: 'block' }, '& .MuiDrawer-paper': { width: drawerWidth } }}
        >
          <Toolbar />
          <QuickActions actions={quickActions} />
          <SideMenu entries={entries} onAction={onMenuAction} />
        </Drawer>
      </Box>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, position: 'relative' }}>
        <Toolbar />
        {session !== null && !session.profile.emailVerified && <UnverifiedBanner />}
        <Box sx={{ position: 'relative', p: { xs: 2, sm: 3 } }}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
      <SendMessageLauncher />
      {creatingList && account !== null && (
        <Suspense fallback={null}>
          <ListDialog
            accountId={account.id}
            onClose={() => {
              setCreatingList(false);
            }}
            onSaved={(list) => void navigate(`/lists/${list.id}`)}
          />
        </Suspense>
      )}
    </Box>
    </RealtimeProvider>
  );
};
