import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { Link } from '@parley/shared';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';

interface LinkActionsProps {
  link: Link;
  /** Edit and Remove for those who may write; null hides them (Read Only). */
  write: { onEdit: () => void; onRemove: () => void } | null;
  onDownload: () => void;
  downloading: boolean;
}

/** A link row's actions: its contact tracking CSV for everyone, Edit and Remove for writers. */
export const LinkActions = ({ link, write, onDownload, downloading }: LinkActionsProps) => (
  <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
    <Tooltip title="Download contact tracking (CSV)">
      <span>
        <IconButton size="small" aria-label={`Download contact tracking of the link ${link.name}`} disabled={downloading} onClick={onDownload}>
          <FileDownloadOutlined fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
    {write !== null && (
      <EditRemoveButtons
        editLabel={`Edit the link ${link.name}`}
        removeLabel={`Remove the link ${link.name}`}
        onEdit={write.onEdit}
        onRemove={write.onRemove}
      />
    )}
  </Box>
);
