import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { can, LINKS_EMPTY_STATE, type Link as ShortLink } from '@parley/shared';
import { useMemo, useState } from 'react';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';
import { PageTable } from '../../components/PageTable';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import type { PageProps } from '../../app/pageProps';
import { useSession } from '../../session/sessionContext';
import { LinkDialog } from './LinkDialog';
import { useLinks, useRemoveLink } from './queries';

type Editing = { link: ShortLink | null } | null;

/** /links/urlshortener: the account's short links, with add, edit and remove for writers. */
export const LinksPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <LinksTable accountId={account.id} canWrite={can(account.user.role, 'links.write')} />
    </>
  );
};

const LinksTable = ({ accountId, canWrite }: { accountId: string; canWrite: boolean }) => {
  const snackbar = useSnackbar();
  const links = useLinks(accountId);
  const remove = useRemoveLink(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<ShortLink | null>(null);
  const { reset: resetRemove } = remove;

  const columns = useMemo<GridColDef<ShortLink>[]>(() => {
    const base: GridColDef<ShortLink>[] = [
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 160 },
      {
        field: 'shortenedUrl',
        headerName: 'Short Link',
        flex: 1,
        minWidth: 220,
        renderCell: ({ row }) => (
          <Link href={row.shortenedUrl} target="_blank" rel="noopener noreferrer">
            {row.shortenedUrl}
          </Link>
        ),
      },
      { field: 'destinationUrl', headerName: 'Destination', flex: 2, minWidth: 240 },
      { field: 'clicks', headerName: 'Clicks', type: 'number', width: 90 },
      { field: 'contactTracking', headerName: 'Tracking', width: 100, valueGetter: (_value, row) => (row.contactTracking ? 'On' : 'Off') },
    ];
    if (!canWrite) return base;
    return [
      ...base,
      {
        field: 'actions',
        headerName: 'Actions',
        width: 110,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: ({ row }) => (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
            <EditRemoveButtons
              editLabel={`Edit the link ${row.name}`}
              removeLabel={`Remove the link ${row.name}`}
              onEdit={() => {
                setEditing({ link: row });
              }}
              onRemove={() => {
                resetRemove();
                setRemoving(row);
              }}
            />
          </Box>
        ),
      },
    ];
  }, [canWrite, resetRemove]);

  return (
    <>
      <PageTable
        intro="Short links send people to your pages and count their clicks. Link previews made by messaging apps are not counted."
        add={canWrite ? { label: 'Add Link', onClick: () => { setEditing({ link: null }); } } : undefined}
        label="Links"
        query={links}
        columns={columns}
        emptyLabel={LINKS_EMPTY_STATE}
      />
      {editing !== null && (
        <LinkDialog
          accountId={accountId}
          link={editing.link}
          onClose={() => {
            setEditing(null);
          }}
        />
      )}
      {removing !== null && (
        <RemoveDialog
          title="Remove Link"
          message={`Remove the link "${removing.name}"? ${removing.shortenedUrl} will stop working, also in messages already sent.`}
          removal={remove}
          onConfirm={() => {
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(null);
                snackbar.show('Link removed');
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
