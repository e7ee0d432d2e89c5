import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { can, SCREENSHOT_MESSAGES, SCREENSHOT_NAME_MAX, type ScreenshotScale } from '@parley/shared';
import { useState } from 'react';
import type { PageProps } from '../../../app/pageProps';
import { ScreenshotPreview } from '../../../components/screenshot/ScreenshotPreview';
import { useSession } from '../../../session/sessionContext';
import { useDebouncedValue } from '../../contacts';
import { SampleMessageFields } from './SampleMessageFields';
import { canAddMessage, draftProblems, initialDraft, screenshotSearch, withMessage, type ScreenshotDraft } from './screenshotDraft';

/** The preview is asked for once typing has paused this long. */
export const SCREENSHOT_PREVIEW_DEBOUNCE_MS = 500;

/**
 * /tools/screenshot: up to 5 sample messages, each outgoing or incoming, under a contact's name, drawn by the
 * server as an iPhone screenshot (docs/tools.md); the preview follows the form and downloads at 1x or 2x.
 */
export const ScreenshotPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const [draft, setDraft] = useState<ScreenshotDraft>(initialDraft);
  const settled = useDebouncedValue(draft, SCREENSHOT_PREVIEW_DEBOUNCE_MS);
  if (account === null) return null;
  const problems = draftProblems(draft);
  const settledValid = draftProblems(settled) === null;
  const pathFor = (scale: ScreenshotScale): string | null =>
    settledValid ? `/v1/accounts/${account.id}/tools/screenshots/ios?${screenshotSearch(settled, scale)}` : null;
  const uploadAccountId = can(account.user.role, 'media.upload') ? account.id : null;
  const full = !canAddMessage(draft);

  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Make a picture of a conversation on a phone: up to 5 messages, each sent by you or received, under the contact&apos;s name.
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { xs: 'stretch', md: 'flex-start' } }}>
        <Stack spacing={2} sx={{ flex: 1, minWidth: 0, maxWidth: 560 }}>
          <Stack direction="row" spacing={2}>
            <TextField
              label="Name"
              required
              fullWidth
              value={draft.name}
              error={problems?.name !== undefined}
              helperText={problems?.name ?? 'As the phone shows the contact'}
              slotProps={{ htmlInput: { maxLength: SCREENSHOT_NAME_MAX } }}
              onChange={(event) => {
                setDraft({ ...draft, name: event.target.value });
              }}
            />
            <TextField
              label="Time"
              sx={{ width: 120, flexShrink: 0 }}
              value={draft.time}
              error={problems?.time !== undefined}
              helperText={problems?.time ?? 'e.g. 9:41'}
              onChange={(event) => {
                setDraft({ ...draft, time: event.target.value });
              }}
            />
          </Stack>
          {draft.messages.map((message, index) => (
            <SampleMessageFields
              key={message.key}
              index={index}
              message={message}
              problem={problems?.messages[index]}
              uploadAccountId={uploadAccountId}
              canRemove={draft.messages.length > 1}
              onChange={(next) => {
                setDraft({ ...draft, messages: draft.messages.map((m) => (m.key === next.key ? next : m)) });
              }}
              onRemove={() => {
                setDraft({ ...draft, messages: draft.messages.filter((m) => m.key !== message.key) });
              }}
            />
          ))}
          <Box>
            <Button
              startIcon={<Add />}
              disabled={full}
              onClick={() => {
                setDraft(withMessage(draft));
              }}
            >
              Add message
            </Button>
            {full && (
              <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                {SCREENSHOT_MESSAGES.tooMany}
              </Typography>
            )}
          </Box>
        </Stack>
        <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', position: { md: 'sticky' }, top: { md: 16 } }}>
          <ScreenshotPreview pathFor={pathFor} fileName="screenshot" emptyText="Fix the fields marked in red to see the screenshot." />
        </Box>
      </Stack>
    </Box>
  );
};
