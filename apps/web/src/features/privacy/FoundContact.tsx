import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PrivacyRemoved, PrivacySearchResult } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';

type Found = NonNullable<PrivacySearchResult>;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Saves text as a file through a temporary link, as a browser download. */
function saveFile(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

const Field = ({ label, value }: { label: string; value: string }) => (
  <Stack direction="row" spacing={1}>
    <Typography component="span" color="text.secondary" sx={{ minWidth: 110 }}>
      {label}
    </Typography>
    <Typography component="span" sx={{ overflowWrap: 'anywhere' }}>
      {value}
    </Typography>
  </Stack>
);

interface FoundContactProps {
  accountId: string;
  found: Found;
  onRemoved: (removed: PrivacyRemoved) => void;
}

/** The contact a search found: a summary, Download (CSV) and Delete permanently. */
export const FoundContact = ({ accountId, found, onRemoved }: FoundContactProps) => {
  const api = useApiClient();
  const { contact, holdings } = found;
  const [confirming, setConfirming] = useState(false);
  const display = usePhoneDisplay();
  const name = display.name(contact);
  const number = display.phone(contact.mobile.number);
  const download = useMutation({
    mutationFn: () => api.get<string>(`/v1/accounts/${accountId}/gdpr/download/${contact.id}`),
    onSuccess: (csv) => {
      saveFile(csv, `contact-${contact.id}.csv`);
    },
  });
  const remove = useMutation({
    mutationFn: async () =>
      (await api.delete<{ data: { removed: PrivacyRemoved } }>(`/v1/accounts/${accountId}/gdpr/remove/${contact.id}`)).data.removed,
    onSuccess: (removed) => {
      setConfirming(false);
      onRemoved(removed);
    },
  });
  const tags = contact.tags.filter((t) => t.visible).map((t) => t.tag);

  return (
    <Card variant="outlined" component="section" aria-label="Contact found">
      <CardContent>
        <Typography variant="h2" gutterBottom>
          {name}
        </Typography>
        <Stack spacing={0.5}>
          <Field label="Mobile" value={`${number} (${contact.mobile.country})${contact.valid ? '' : ' · invalid'}`} />
          <Field label="Email" value={contact.email ?? '—'} />
          <Field label="Created" value={new Date(contact.created.at).toLocaleString()} />
          {contact.blocked !== undefined && <Field label="Blocked" value={new Date(contact.blocked).toLocaleString()} />}
          {contact.optedOut !== undefined && <Field label="Opted out" value={new Date(contact.optedOut).toLocaleString()} />}
          <Field label="Attributes" value={String(Object.keys(contact.attributes).length)} />
          <Field
            label="Held"
            value={`${plural(holdings.lists, 'list membership', 'list memberships')}, ${plural(holdings.conversations, 'conversation', 'conversations')}, ${plural(holdings.messages, 'message', 'messages')}`}
          />
        </Stack>
        {tags.length > 0 && (
          <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap' }} aria-label="Tags">
            {tags.map((tag) => (
              <Chip key={tag} size="small" label={tag} />
            ))}
          </Stack>
        )}
        {download.isError && <ErrorAlert message={errorMessage(download.error)} />}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button variant="outlined" startIcon={<DownloadOutlined />} loading={download.isPending} onClick={() => { download.mutate(); }}>
          Download (CSV)
        </Button>
        <Button color="error" variant="contained" startIcon={<DeleteForeverOutlined />} onClick={() => { remove.reset(); setConfirming(true); }}>
          Delete Permanently
        </Button>
      </CardActions>
      {confirming && (
        <ConfirmDialog
          title="Delete Permanently"
          message={`Delete ${name === number ? name : `${name} (${number})`} and everything held about them: list memberships, conversations and messages? This cannot be undone.`}
          confirmLabel="Delete Permanently"
          pending={remove.isPending}
          error={remove.isError ? <ErrorAlert message={errorMessage(remove.error)} /> : undefined}
          onConfirm={() => { remove.mutate(); }}
          onCancel={() => { setConfirming(false); }}
        />
      )}
    </Card>
  );
};
