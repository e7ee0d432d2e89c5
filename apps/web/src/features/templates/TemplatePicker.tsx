import LockOutlined from '@mui/icons-material/LockOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TEMPLATE_NAME_MAX, TEMPLATES_EMPTY_STATE, type Template } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { useDebouncedValue } from '../contacts';
import { useTemplates } from './queries';
import { ErrorAlert } from '../../components/ErrorAlert';

/** The search waits this long after the last keystroke. */
const TEMPLATE_SEARCH_DEBOUNCE_MS = 300;

export interface TemplatePickerProps {
  accountId: string;
  onPick: (template: Template) => void;
  autoFocus?: boolean;
}

const attachments = (n: number): string => (n === 0 ? '' : ` · ${String(n)} ${n === 1 ? 'attachment' : 'attachments'}`);

/** The SMS templates the user sees, searched by name; picking one hands it on. */
export const TemplatePicker = ({ accountId, onPick, autoFocus }: TemplatePickerProps) => {
  const [input, setInput] = useState('');
  const name = useDebouncedValue(input.trim(), TEMPLATE_SEARCH_DEBOUNCE_MS);
  const templates = useTemplates(accountId, 'SMS', name);
  const rows = templates.data?.data ?? [];

  return (
    <Stack spacing={1}>
      <TextField
        label="Search by name"
        size="small"
        fullWidth
        autoFocus={autoFocus}
        value={input}
        onChange={(event) => {
          setInput(event.target.value);
        }}
        slotProps={{
          htmlInput: { maxLength: TEMPLATE_NAME_MAX },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      {templates.isFetching ? <LinearProgress aria-label="Loading templates" /> : <Stack sx={{ height: 4 }} />}
      {templates.isError && <ErrorAlert message={errorMessage(templates.error)} onRetry={() => void templates.refetch()} />}
      {templates.isSuccess && rows.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
          {name === '' ? TEMPLATES_EMPTY_STATE : `No SMS templates named like "${name}"`}
        </Typography>
      )}
      <List dense aria-label="SMS templates" sx={{ maxHeight: 360, overflowY: 'auto' }}>
        {rows.map((template) => (
          <ListItemButton
            key={template.id}
            onClick={() => {
              onPick(template);
            }}
            sx={{ borderRadius: 1, alignItems: 'flex-start' }}
          >
            <ListItemText
              primary={
                <Stack direction="row" spacing={0.5} component="span" sx={{ alignItems: 'center' }}>
                  {template.private && <LockOutlined fontSize="inherit" color="action" aria-label="Private" />}
                  <span>{template.name}</span>
                </Stack>
              }
              secondary={`${template.template === '' ? '(attachments only)' : template.template}${attachments(template.media.length)}`}
              slotProps={{
                secondary: { sx: { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' } },
              }}
            />
          </ListItemButton>
        ))}
      </List>
    </Stack>
  );
};
