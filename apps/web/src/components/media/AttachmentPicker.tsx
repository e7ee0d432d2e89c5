import AttachFile from '@mui/icons-material/AttachFile';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { MESSAGE_MEDIA_MAX, mediaChipName, type MessageMedia } from '@parley/shared';
import { useState } from 'react';
import { useSession } from '../../session/sessionContext';
import { canAttachMore, withAttachment, withoutAttachment } from './mediaUrls';
import { UploadFileDialog } from './UploadFileDialog';

export interface AttachmentPickerProps {
  value: MessageMedia[];
  onChange: (next: MessageMedia[]) => void;
  disabled?: boolean;
}

/**
 * A message's attachments: an upload button (Upload File dialog) and one chip per file, its name cut at
 * 20 characters; at most 5. Uploads go to the chosen account of the session.
 */
export const AttachmentPicker = ({ value, onChange, disabled = false }: AttachmentPickerProps) => {
  const session = useSession();
  const accountId = session.account?.id;
  const [open, setOpen] = useState(false);
  const full = !canAttachMore(value);

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <Tooltip title={full ? `At most ${String(MESSAGE_MEDIA_MAX)} attachments` : ''}>
        <span>
          <Button
            size="small"
            startIcon={<AttachFile />}
            disabled={disabled || full || accountId === undefined}
            onClick={() => {
              setOpen(true);
            }}
          >
            Attach
          </Button>
        </span>
      </Tooltip>
      {value.map((item, index) => (
        <Tooltip key={`${String(index)}:${item.url}`} title={item.filename}>
          <Chip
            size="small"
            label={mediaChipName(item.filename === '' ? item.type : item.filename)}
            onDelete={
              disabled
                ? undefined
                : () => {
                    onChange(withoutAttachment(value, index));
                  }
            }
          />
        </Tooltip>
      ))}
      {open && accountId !== undefined && (
        <UploadFileDialog
          accountId={accountId}
          onClose={() => {
            setOpen(false);
          }}
          onUploaded={(item) => {
            onChange(withAttachment(value, item));
          }}
        />
      )}
    </Stack>
  );
};
