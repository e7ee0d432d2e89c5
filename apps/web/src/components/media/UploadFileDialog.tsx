import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  MEDIA_UPLOAD_ACCEPT,
  MEDIA_UPLOAD_FAILED_TOAST,
  MEDIA_UPLOAD_MAX_KB,
  MEDIA_UPLOAD_ONE_FILE_MESSAGE,
  mediaUploadProblem,
  type MessageMedia,
} from '@parley/shared';
import { useId, useRef, useState, type DragEvent } from 'react';
import { DialogFooter } from '../DialogFooter';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../ErrorAlert';
import { useSnackbar } from '../snackbarContext';
import { useUploadMedia } from './mediaQueries';
import { attachmentOf, singleFile } from './mediaUrls';

export interface UploadFileDialogProps {
  accountId: string;
  onClose: () => void;
  onUploaded: (media: MessageMedia) => void;
}

/**
 * Upload File: one picture, dropped or chosen. The browser checks type and size with the
 * server's own messages before anything is sent; the server checks again from the bytes and resizes to 500.
 */
export const UploadFileDialog = ({ accountId, onClose, onUploaded }: UploadFileDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const upload = useUploadMedia(accountId);
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const choose = (files: FileList | null): void => {
    upload.reset();
    const chosen = singleFile(files);
    setFile(chosen);
    setProblem(chosen === null ? MEDIA_UPLOAD_ONE_FILE_MESSAGE : mediaUploadProblem(chosen));
  };

  const drop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setDragging(false);
    if (!upload.isPending) choose(event.dataTransfer.files);
  };

  const submit = (): void => {
    if (file === null || problem !== null) return;
    upload.mutate(file, {
      onSuccess: (shared) => {
        onUploaded(attachmentOf(shared, file.name));
        onClose();
      },
      onError: () => {
        snackbar.show(MEDIA_UPLOAD_FAILED_TOAST);
      },
    });
  };

  return (
    <Dialog open onClose={upload.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Upload File</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Box
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => {
              setDragging(false);
            }}
            onDrop={drop}
            sx={{
              border: 2,
              borderStyle: 'dashed',
              borderColor: dragging ? 'primary.main' : 'divider',
              borderRadius: 2,
              p: 3,
              textAlign: 'center',
            }}
          >
            <CloudUploadOutlined color="action" sx={{ fontSize: 40 }} />
            <Typography variant="body2" sx={{ mb: 1 }}>
              Drop a picture here, or
            </Typography>
            <Button variant="outlined" disabled={upload.isPending} onClick={() => input.current?.click()}>
              Choose File
            </Button>
            <input
              ref={input}
              type="file"
              hidden
              accept={MEDIA_UPLOAD_ACCEPT}
              aria-label="Picture to upload"
              onChange={(event) => {
                choose(event.target.files);
                // The same file may be chosen again after a fix.
                event.target.value = '';
              }}
            />
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
              JPEG, PNG, GIF or WebP, at most {MEDIA_UPLOAD_MAX_KB} kB
            </Typography>
          </Box>
          {file !== null && <Typography variant="body2">{file.name}</Typography>}
          {problem !== null && <ErrorAlert message={problem} />}
          {upload.isError && <ErrorAlert message={errorMessage(upload.error)} />}
        </Stack>
      </DialogContent>
      <DialogFooter label="Upload" onCancel={onClose} cancelDisabled={upload.isPending} disabled={file === null || problem !== null} pending={upload.isPending} onAction={submit} />
    </Dialog>
  );
};
