import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { INVALID_CONTACT_DETAIL_MESSAGE, INVALID_CONTACT_MESSAGE, type Contact } from '@parley/shared';
import { useId, useState } from 'react';

/**
 * The mark of an invalid contact: a tooltip with the reason (or 'Invalid Contact'); a click says
 * 'This contact has invalid data.' with the reason.
 */
export const InvalidContactIndicator = ({ contact }: { contact: Contact }) => {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const description = contact.error?.description ?? '';
  return (
    <>
      <Tooltip title={description === '' ? INVALID_CONTACT_MESSAGE : description}>
        <IconButton
          size="small"
          color="warning"
          aria-label={INVALID_CONTACT_MESSAGE}
          onClick={(event) => {
            // The row would open the contact too.
            event.stopPropagation();
            setOpen(true);
          }}
        >
          <ErrorOutline fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && (
        <Dialog
          open
          onClose={() => {
            setOpen(false);
          }}
          aria-labelledby={titleId}
          onClick={(event) => {
            event.stopPropagation();
          }}
        >
          <DialogTitle id={titleId}>{INVALID_CONTACT_MESSAGE}</DialogTitle>
          <DialogContent>
            <DialogContentText>
              {INVALID_CONTACT_DETAIL_MESSAGE} {description}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button
              onClick={() => {
                setOpen(false);
              }}
            >
              OK
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
};
