import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { GridColDef } from '@mui/x-data-grid';
import { can, LINKS_EMPTY_STATE, trackingDownloadFailedMessage, type Link as ShortLink } from '@parley/shared';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/client';
import { PageTable } from '../../components/PageTable';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import type { PageProps } from '../../app/pageProps';
import { useSession } from '../../session/sessionContext';
import { LinkActions } from './LinkActions';
import { LinkDialog } from './LinkDialog';
import { useDownloadTracking, useLinks, useRemoveLink } from './queries';

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

  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'));
  const download = useDownloadTracking(accountId);
  const { mutate: downloadTracking, isPending: downloading } = download;

  const columns = useMemo<GridColDef<ShortLink>[]>(() => {
    const actions: GridColDef<ShortLink> = {
      field: 'actions',
      headerName: 'Actions',
      width: canWrite ? 130 : 80,
      sortable: false,
      filterable: false,
      disableColumnMenu: true,
      renderCell: ({ row }) => (
        <LinkActions
          link={row}
          downloading={downloading}
          onDownload={() => {
            downloadTracking(row, {
              onError: (error) => {
                snackbar.show(trackingDownloadFailedMessage(errorMessage(error)));
              },
            });
          }}
          write={
            canWrite
              ? {
                  onEdit: () => {
                    setEditing({ link: row });
                  },
                  onRemove: () => {
                    resetRemove();
                    setRemoving(row);
                  },
                }
              : null
          }
        />
      ),
    };
    const name: GridColDef<ShortLink> = { field: 'name', headerName: 'Name', flex: 1, minWidth: narrow ? 120 : 160 };
    const shortLink: GridColDef<ShortLink> = {
      field: 'shortenedUrl',
      headerName: 'Short Link',
      flex: 1,
      minWidth: 220,
      renderCell: ({ row }) => (
        <Link href={row.shortenedUrl} target="_blank" rel="noopener noreferrer">
          {row.shortenedUrl}
        </Link>
      ),
    };
    const clicks: GridColDef<ShortLink> = { field: 'clicks', headerName: 'Clicks', type: 'number', width: 80 };
    // On a phone the actions come right after the name, so they are on screen without scrolling sideways.
    if (narrow) return [name, actions, clicks, shortLink];
    return [
      name,
      shortLink,
      { field: 'destinationUrl', headerName: 'Destination', flex: 2, minWidth: 240 },
      clicks,
      { field: 'contactTracking', headerName: 'Tracking', width: 100, valueGetter: (_value, row) => (row.contactTracking ? 'On' : 'Off') },
      actions,
    ];
  }, [canWrite, resetRemove, narrow, downloadTracking, downloading, snackbar]);

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
