import Download from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ScreenshotScale } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../ErrorAlert';
import { saveBlob } from '../saveBlob';
import { useFetchPng, useScreenshotImage } from './screenshotImage';

export interface ScreenshotPreviewProps {
  /** The API path of the PNG at a scale; null while there is nothing valid to draw. */
  pathFor: (scale: ScreenshotScale) => string | null;
  /** The downloaded file's name, without the scale and extension. */
  fileName: string;
  /** Shown instead of the picture while `pathFor` gives nothing. */
  emptyText: string;
  /** The preview's greatest width in CSS pixels (the picture is 390 wide; default 320). */
  maxWidth?: number;
}

/** The screenshot as the server draws it (1x), and downloads of its PNG at 1x and 2x. */
export const ScreenshotPreview = ({ pathFor, fileName, emptyText, maxWidth = 320 }: ScreenshotPreviewProps) => {
  const preview = pathFor(1);
  const image = useScreenshotImage(preview);
  const fetchPng = useFetchPng();
  const [saving, setSaving] = useState<ScreenshotScale | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const download = async (scale: ScreenshotScale): Promise<void> => {
    const path = pathFor(scale);
    if (path === null) return;
    setSaving(scale);
    setFailure(null);
    try {
      const blob = scale === 1 && path === preview && image.blob !== undefined && !image.loading ? image.blob : await fetchPng(path);
      saveBlob(blob, `${fileName}${scale === 2 ? '@2x' : ''}.png`);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSaving(null);
    }
  };

  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', width: '100%' }}>
      <Box sx={{ width: '100%', maxWidth, minHeight: 200, position: 'relative', border: 1, borderColor: 'divider', borderRadius: 2, overflow: 'hidden', bgcolor: 'background.paper' }}>
        {image.loading && <LinearProgress aria-label="Drawing the screenshot" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
        {preview === null ? (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
            {emptyText}
          </Typography>
        ) : (
          image.src !== null && <Box component="img" src={image.src} alt="Screenshot preview" data-testid="screenshot-preview" sx={{ display: 'block', width: '100%', height: 'auto' }} />
        )}
      </Box>
      {preview !== null && image.error !== null && <ErrorAlert message={errorMessage(image.error)} />}
      {failure !== null && <ErrorAlert message={failure} />}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', justifyContent: 'center' }}>
        {([1, 2] as const).map((scale) => (
          <Button
            key={scale}
            variant={scale === 1 ? 'contained' : 'outlined'}
            startIcon={<Download />}
            disabled={preview === null || saving !== null}
            loading={saving === scale}
            onClick={() => void download(scale)}
          >
            Download PNG ({scale}x)
          </Button>
        ))}
      </Stack>
    </Stack>
  );
};
