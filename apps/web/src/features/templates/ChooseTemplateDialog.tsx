import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { Template } from '@parley/shared';
import { useId } from 'react';
import { TemplatePicker } from './TemplatePicker';

export interface ChooseTemplateDialogProps {
  accountId: string;
  onChoose: (template: Template) => void;
  onClose: () => void;
}

/** 'Choose Template': the SMS templates, searched by name; choosing one closes the dialog. */
export const ChooseTemplateDialog = ({ accountId, onChoose, onClose }: ChooseTemplateDialogProps) => {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Choose Template</DialogTitle>
      <DialogContent>
        <TemplatePicker
          accountId={accountId}
          autoFocus
          onPick={(template) => {
            onChoose(template);
            onClose();
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
};
