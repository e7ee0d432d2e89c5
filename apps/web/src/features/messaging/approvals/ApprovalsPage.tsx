import Typography from '@mui/material/Typography';
import { can, isApprovalType } from '@parley/shared';
import { useParams } from 'react-router';
import { useSession } from '../../../session/sessionContext';
import type { PageProps } from '../../../app/pageProps';
import { AcceptableHoursApprovals } from './AcceptableHoursApprovals';

/** /approvals/{approvalType}: only 'acceptablehours' is known; any other type is titled Unknown. */
export const ApprovalsPage = ({ title }: PageProps) => {
  const { approvalType = '' } = useParams();
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {isApprovalType(approvalType) ? (
        <AcceptableHoursApprovals key={account.id} accountId={account.id} canApprove={can(account.user.role, 'account.manage')} />
      ) : (
        <Typography color="text.secondary">There is nothing of this kind to approve.</Typography>
      )}
    </>
  );
};
