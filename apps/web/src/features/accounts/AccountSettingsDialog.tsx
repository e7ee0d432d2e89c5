import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { InvoicesTab } from '../billing';
import { PhoneNumbersTab } from '../phoneNumbers';
import { PlanTab } from './PlanTab';
import { UsersTab } from './UsersTab';

const tabs = ['Plan', 'Users', 'Invoices', 'Phone Numbers'] as const;
type SettingsTab = (typeof tabs)[number];

const tabId = (name: SettingsTab): string => `settings-tab-${name.replace(/\s/g, "")}`;

/** Account settings: the administrator's view of plan, users, invoices and phone numbers. */
export const AccountSettingsDialog = ({ accountId, onClose }: { accountId: string; onClose: () => void }) => {
  const [tab, setTab] = useState<SettingsTab>('Plan');
  return (
    <Dialog open onClose={onClose} aria-labelledby="account-settings-title" fullWidth maxWidth="md">
      <DialogTitle id="account-settings-title" sx={{ pr: 6 }}>
        Account Settings
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', px: 3 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: SettingsTab) => {
            setTab(value);
          }}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {tabs.map((name) => (
            <Tab key={name} value={name} label={name} id={tabId(name)} aria-controls="settings-panel" />
          ))}
        </Tabs>
      </Box>
      <DialogContent id="settings-panel" role="tabpanel" aria-labelledby={tabId(tab)} sx={{ minHeight: 360 }}>
        {tab === 'Plan' && <PlanTab accountId={accountId} />}
        {tab === 'Users' && <UsersTab accountId={accountId} />}
        {tab === 'Invoices' && <InvoicesTab accountId={accountId} />}
        {tab === 'Phone Numbers' && <PhoneNumbersTab accountId={accountId} />}
      </DialogContent>
    </Dialog>
  );
};
