import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';

interface EditRemoveButtonsProps {
  /** The buttons' accessible names, which say what they act on. */
  editLabel: string;
  removeLabel: string;
  onEdit: () => void;
  onRemove: () => void;
}

/** A table row's Edit and Remove icon buttons. */
export const EditRemoveButtons = ({ editLabel, removeLabel, onEdit, onRemove }: EditRemoveButtonsProps) => (
  <>
    <IconButton size="small" aria-label={editLabel} onClick={onEdit}>
      <EditOutlined fontSize="small" />
    </IconButton>
    <IconButton size="small" aria-label={removeLabel} onClick={onRemove}>
      <DeleteOutlined fontSize="small" />
    </IconButton>
  </>
);
