import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { Role } from '@parley/shared';
import { useCallAbility, useStartCall } from './queries';

interface CallButtonProps {
  accountId: string;
  role: Role;
  /** The contact's number. */
  destination: string;
  /** The account's number the call comes from (the conversation's). */
  fromId: string;
  /** A phone: an icon with its name as a tooltip. */
  compact: boolean;
}

/**
 * Call: Parley rings the user's own mobile and connects them to the contact (docs/calls.md). Hidden for roles
 * that may not send; disabled, with the reason as a tooltip, while the user's profile has no mobile.
 */
export const CallButton = ({ accountId, role, destination, fromId, compact }: CallButtonProps) => {
  const ability = useCallAbility(role);
  const call = useStartCall(accountId);
  if (!ability.allowed) return null;
  const disabled = ability.disabledReason !== null;
  const onClick = () => {
    call.start(destination, fromId);
  };
  const button = compact ? (
    <IconButton aria-label="Call" disabled={disabled} loading={call.pending} onClick={onClick}>
      <PhoneOutlined />
    </IconButton>
  ) : (
    <Button variant="outlined" startIcon={<PhoneOutlined />} disabled={disabled} loading={call.pending} onClick={onClick}>
      Call
    </Button>
  );
  // A disabled button takes no pointer events: the span carries the tooltip.
  return (
    <Tooltip title={ability.disabledReason ?? (compact ? 'Call' : '')}>
      <span>{button}</span>
    </Tooltip>
  );
};
