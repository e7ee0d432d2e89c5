import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Profile } from '@parley/shared';

/** Who is signed in; editing the profile comes later. */
export const ProfileSummaryDialog = ({ profile, onClose }: { profile: Profile; onClose: () => void }) => (
  <Dialog open onClose={onClose} aria-labelledby="profile-summary-title" fullWidth maxWidth="xs">
    <DialogTitle id="profile-summary-title">Profile</DialogTitle>
    <DialogContent>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {`${profile.firstName} ${profile.lastName}`.trim() || profile.email}
      </Typography>
      <Typography color="text.secondary">{profile.email}</Typography>
    </DialogContent>
    <DialogActions>
      <Button onClick={onClose}>Close</Button>
    </DialogActions>
  </Dialog>
);
