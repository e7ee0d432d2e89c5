import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { can, CUSTOM_DOMAINS_EMPTY_STATE, type CustomDomain } from '@parley/shared';
import { useMemo, useState } from 'react';
import { PageTable } from '../../components/PageTable';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import type { PageProps } from '../../app/pageProps';
import { useSession } from '../../session/sessionContext';
import { AddDomainDialog } from './AddDomainDialog';
import { VerifyDomainDialog } from './VerifyDomainDialog';
import { isVerified, useDomains, useRemoveDomain } from './queries';

/** /links/customdomains: the account's own short-link domains, their state, verify and remove. */
export const CustomDomainsPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <DomainsTable accountId={account.id} canWrite={can(account.user.role, 'links.write')} />
    </>
  );
};

const DomainsTable = ({ accountId, canWrite }: { accountId: string; canWrite: boolean }) => {
  const snackbar = useSnackbar();
  const domains = useDomains(accountId);
  const remove = useRemoveDomain(accountId);
  const [adding, setAdding] = useState(false);
  const [verifying, setVerifying] = useState<CustomDomain | null>(null);
  const [removing, setRemoving] = useState<CustomDomain | null>(null);
  const { reset: resetRemove } = remove;

  const columns = useMemo<GridColDef<CustomDomain>[]>(() => {
    const base: GridColDef<CustomDomain>[] = [
      { field: 'domain', headerName: 'Domain', flex: 1, minWidth: 200 },
      {
        field: 'renewAt',
        headerName: 'State',
        width: 260,
        renderCell: ({ row }) =>
          isVerified(row) ? (
            <Chip size="small" color="success" label={`Verified until ${new Date(row.renewAt ?? '').toLocaleDateString()}`} />
          ) : (
            <Chip size="small" color="warning" label="Not verified" />
          ),
      },
    ];
    if (!canWrite) return base;
    return [
      ...base,
      {
        field: 'actions',
        headerName: 'Actions',
        width: 170,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: ({ row }) => (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
            <Button size="small" onClick={() => { setVerifying(row); }}>
              Verify
            </Button>
            <Tooltip title="Remove">
              <IconButton
                aria-label={`Remove the domain ${row.domain}`}
                onClick={() => {
                  resetRemove();
                  setRemoving(row);
                }}
              >
                <DeleteOutlined />
              </IconButton>
            </Tooltip>
          </Box>
        ),
      },
    ];
  }, [canWrite, resetRemove]);

  return (
    <>
      <PageTable
        intro="Put short links on your own domain: add it, create the DNS records shown, then verify."
        add={canWrite ? { label: 'Add Domain', onClick: () => { setAdding(true); } } : undefined}
        label="Custom Domains"
        query={domains}
        columns={columns}
        emptyLabel={CUSTOM_DOMAINS_EMPTY_STATE}
      />
      {adding && (
        <AddDomainDialog
          accountId={accountId}
          onClose={() => { setAdding(false); }}
          onAdded={(domain) => {
            setAdding(false);
            setVerifying(domain);
          }}
        />
      )}
      {verifying !== null && <VerifyDomainDialog accountId={accountId} domain={verifying} onClose={() => { setVerifying(null); }} />}
      {removing !== null && (
        <RemoveDialog
          title="Remove Domain"
          message={`Remove ${removing.domain}? Links can no longer be put on it.`}
          removal={remove}
          onConfirm={() => {
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(null);
                snackbar.show('Domain removed');
              },
            });
          }}
          onCancel={() => { setRemoving(null); }}
        />
      )}
    </>
  );
};
