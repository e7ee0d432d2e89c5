import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { CustomDomain } from '@parley/shared';
import { useId } from 'react';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { useVerifyDomain } from './queries';

/** The DNS records to create for the domain, and Verify, which asks DNS now. */
export const VerifyDomainDialog = ({ accountId, domain, onClose }: { accountId: string; domain: CustomDomain; onClose: () => void }) => {
  const titleId = useId();
  const verify = useVerifyDomain(accountId);
  const result = verify.data;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Verify {domain.domain}</DialogTitle>
      <DialogContent>
        <Typography gutterBottom>Create these records at your DNS host, then verify. DNS changes can take a while to show.</Typography>
        <Table size="small" aria-label="DNS records">
          <TableHead>
            <TableRow>
              <TableCell>Type</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Value</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {domain.records.map((record) => (
              <TableRow key={`${record.type}-${record.value}`}>
                <TableCell>{record.type}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{record.name}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>{record.value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {result !== undefined && (
          <Alert severity={result.verified ? 'success' : 'warning'} sx={{ mt: 2 }}>
            {result.message}
          </Alert>
        )}
        {verify.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(verify.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogFooter
        label="Verify"
        cancelLabel={result?.verified === true ? 'Close' : 'Cancel'}
        onCancel={onClose}
        pending={verify.isPending}
        disabled={result?.verified === true}
        onAction={() => { verify.mutate(domain.id); }}
      />
    </Dialog>
  );
};
