import AddIcon from '@mui/icons-material/Add';
import LogoutIcon from '@mui/icons-material/Logout';
import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { roleLabels } from '@parley/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { accountFromRedirect, peekRedirect, takeRedirect } from '../../session/selection';
import { useSession } from '../../session/sessionContext';

const CreateAccountDialog = lazy(() =>
  import('./CreateAccountDialog').then((m) => ({ default: m.CreateAccountDialog })),
);

export const NO_ACCOUNTS_TEXT =
  'You are not associated with any accounts. Please request an account admin to invite you to their account or create your own account by clicking on the plus sign.';

/** /accounts and /chooseaccount: choose the account to work in, or create one. */
export const AccountsPage = ({ title }: PageProps) => {
  const session = useSession();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const choose = (id: string): void => {
    session.selectAccount(id);
    void navigate(takeRedirect() ?? '/', { replace: true });
  };

  // A saved link that names one of the user's accounts chooses it by itself.
  const autoSelect = accountFromRedirect(peekRedirect(), session.accounts.map((a) => a.id));
  useEffect(() => {
    if (autoSelect === null) return;
    session.selectAccount(autoSelect);
    void navigate(takeRedirect() ?? '/', { replace: true });
  }, [autoSelect, session, navigate]);

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <Tooltip title="Refresh">
          <IconButton aria-label="Refresh" onClick={session.refreshAccounts}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title="Create Account">
          <IconButton
            aria-label="Create Account"
            onClick={() => {
              setCreating(true);
            }}
          >
            <AddIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title="Logout">
          <IconButton aria-label="Logout" onClick={session.logout}>
            <LogoutIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      {session.accounts.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography>{NO_ACCOUNTS_TEXT}</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="Accounts">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Role</TableCell>
                <TableCell align="right" />
              </TableRow>
            </TableHead>
            <TableBody>
              {session.accounts.map((account) => (
                <TableRow key={account.id} selected={session.account?.id === account.id}>
                  <TableCell>{account.name}</TableCell>
                  <TableCell>{roleLabels[account.user.role]}</TableCell>
                  <TableCell align="right">
                    <Button
                      variant="outlined"
                      size="small"
                      aria-label={`Select ${account.name}`}
                      onClick={() => {
                        choose(account.id);
                      }}
                    >
                      Select
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {creating && (
        <Suspense fallback={null}>
          <CreateAccountDialog
            onCancel={() => {
              setCreating(false);
            }}
            onCreated={(account) => {
              setCreating(false);
              choose(account.id);
            }}
          />
        </Suspense>
      )}
    </Box>
  );
};
