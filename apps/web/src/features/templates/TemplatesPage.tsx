import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { can, templatePathSegments, templateTypes, TEMPLATES_EMPTY_STATE, type Role, type Template, type TemplateType } from '@parley/shared';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { RemoveDialog } from '../../components/RemoveDialog';
import { PageTable } from '../../components/PageTable';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { TemplateDialog } from './TemplateDialog';
import { useRemoveTemplate, useTemplates } from './queries';
import { WebhookLinksDialog } from './WebhookLinksDialog';
import { templateColumns } from './templateColumns';
import { templateTypeOfPath } from './templatePaths';

const intro: Record<TemplateType, string> = {
  SMS: 'Saved messages, chosen in the send box and in campaigns.',
  Web: "Messages an integration sends by calling the template's web-hook link.",
  OptIn: 'Public sign-up pages: whoever signs up joins the list and gets the message.',
};

type Editing = { template: Template | null } | null;

/**
 * /templates, /templates/sms, /templates/web and /templates/optin: the templates of one type, chosen by the
 * path segment (SMS at /templates). Add, edit and remove follow 'templates.write'.
 */
export const TemplatesPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const { pathname } = useLocation();
  const type = templateTypeOfPath(pathname);
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Tabs value={type} aria-label="Template types" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        {templateTypes.map((t) => (
          <Tab key={t} value={t} label={t} component={Link} to={`/templates/${templatePathSegments[t]}`} />
        ))}
      </Tabs>
      {/* A table per type, so paging and dialogs start afresh when the type changes. */}
      <TemplatesTable key={type} accountId={account.id} type={type} role={account.user.role} />
    </>
  );
};

const TemplatesTable = ({ accountId, type, role }: { accountId: string; type: TemplateType; role: Role }) => {
  const canWrite = can(role, 'templates.write');
  const snackbar = useSnackbar();
  const templates = useTemplates(accountId, type);
  const remove = useRemoveTemplate(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Template | null>(null);
  const [linking, setLinking] = useState<Template | null>(null);

  const { reset: resetRemove } = remove;
  const columns = useMemo(
    () =>
      templateColumns(type, canWrite, {
        edit: (template) => { setEditing({ template }); },
        remove: (template) => {
          resetRemove();
          setRemoving(template);
        },
        link: setLinking,
      }),
    [canWrite, type, resetRemove],
  );

  return (
    <>
      <PageTable
        intro={intro[type]}
        add={canWrite ? { label: 'Add Template', onClick: () => { setEditing({ template: null }); } } : undefined}
        label={`${type} Templates`}
        query={templates}
        columns={columns}
        emptyLabel={TEMPLATES_EMPTY_STATE}
      />
      {editing !== null && (
        <TemplateDialog
          accountId={accountId}
          template={editing.template}
          type={type}
          onClose={() => {
            setEditing(null);
          }}
        />
      )}
      {linking !== null && (
        <WebhookLinksDialog
          accountId={accountId}
          template={linking}
          role={role}
          onClose={() => {
            setLinking(null);
          }}
        />
      )}
      {removing !== null && (
        <RemoveDialog
          title="Remove Template"
          message={`Remove the template "${removing.name}"? Campaigns that use it keep their text.`}
          removal={remove}
          onConfirm={() => {
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(null);
                snackbar.show('Template removed');
              },
            });
          }}
          onCancel={() => {
            setRemoving(null);
          }}
        />
      )}
    </>
  );
};
