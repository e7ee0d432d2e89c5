import ListItemText from '@mui/material/ListItemText';
import type { Contact } from '@parley/shared';
import type { HTMLAttributes } from 'react';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';

/** Why a contact cannot be texted, as the picker shows it; null when it can. */
export const unreachableReason = (contact: Pick<Contact, 'blocked' | 'optedOut' | 'valid'>): string | null => {
  if (contact.blocked !== undefined) return 'Blocked';
  if (contact.optedOut !== undefined) return 'Opted out';
  if (!contact.valid) return 'Invalid';
  return null;
};

/** A contact among a search's options: the name, then the number and why it cannot be texted, if so. */
export const ContactOption = ({ itemProps, contact }: { itemProps: HTMLAttributes<HTMLLIElement>; contact: Contact }) => {
  const display = usePhoneDisplay();
  const reason = unreachableReason(contact);
  return (
    <li {...itemProps}>
      <ListItemText
        primary={display.name(contact)}
        secondary={[display.phone(contact.mobile.number), reason].filter((part) => part !== null && part !== '').join(' · ')}
      />
    </li>
  );
};
