import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import TouchAppOutlined from '@mui/icons-material/TouchAppOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { campaignTriggerCodes, campaignTriggerLabels, type CampaignTriggerCode } from '@parley/shared';
import { useId } from 'react';

const descriptions: Readonly<Record<CampaignTriggerCode, string>> = {
  M: 'Executed when you choose Execute Now.',
  S: 'Executed on a schedule: once, daily, monthly, on days of the week or by cron.',
  FU: 'Executed with the rows of a CSV file you upload.',
};

const icons: Readonly<Record<CampaignTriggerCode, typeof TouchAppOutlined>> = {
  M: TouchAppOutlined,
  S: EventRepeatOutlined,
  FU: UploadFileOutlined,
};

/** 'Choose Trigger': how the new campaign is executed. */
export const ChooseTriggerDialog = ({ onChoose, onClose }: { onChoose: (trigger: CampaignTriggerCode) => void; onClose: () => void }) => {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Choose Trigger</DialogTitle>
      <List sx={{ px: 1 }}>
        {campaignTriggerCodes.map((code) => {
          const Icon = icons[code];
          return (
            <ListItemButton key={code} onClick={() => { onChoose(code); }}>
              <ListItemIcon>
                <Icon />
              </ListItemIcon>
              <ListItemText primary={campaignTriggerLabels[code]} secondary={descriptions[code]} />
            </ListItemButton>
          );
        })}
      </List>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
};
