import { createContext, useContext } from 'react';

/** What the table's toolbar offers for the selected contacts; an action is absent when the role may not. */
export interface ContactSelection {
  count: number;
  /** A narrow table: Send Message as an icon, the rest behind a menu. */
  compact: boolean;
  onAddToList?: () => void;
  onSendMessage?: () => void;
  onCheckNumberTypes?: () => void;
  onDelete?: () => void;
  onClear: () => void;
}

export const ContactSelectionContext = createContext<ContactSelection | null>(null);

export const useContactSelection = (): ContactSelection | null => useContext(ContactSelectionContext);
