import { can, type Contact, type Role } from '@parley/shared';
import { unreachableReason } from '../messaging';

export type ContactRowActionId = 'edit' | 'sendMessage' | 'call' | 'block' | 'remove';

export interface ContactRowAction {
  id: ContactRowActionId;
  label: string;
  /** Shown, but not possible for this contact (the hint says why). */
  disabled: boolean;
  hint?: string;
}

/** What the person may do to contacts (the role's permissions, as the contact dialog uses them). */
export interface ContactPermissions {
  canWrite: boolean;
  canBlock: boolean;
  canSendMessages: boolean;
}

export const contactPermissions = (role: Role): ContactPermissions => ({
  canWrite: can(role, 'contacts.write'),
  canBlock: can(role, 'contacts.block'),
  canSendMessages: can(role, 'messages.send'),
});

/**
 * Call (docs/calls.md), when the role may call: disabled with `disabledReason` (no mobile on the profile, no
 * active number to call from).
 */
export interface ContactCall {
  disabledReason: string | null;
}

/**
 * The actions of a row's menu, the same as the contact dialog offers: Edit, Send Message, Call, Block, Remove.
 * Read Only (no contacts.write) gets none, so its table has no menu at all. A blocked contact shows Block
 * disabled: only the contact's START lifts a block, and a contact that cannot be texted shows
 * Send Message disabled with the reason.
 */
export function contactRowActions(
  permissions: ContactPermissions,
  contact: Pick<Contact, 'blocked' | 'optedOut' | 'valid'>,
  call: ContactCall | null = null,
): ContactRowAction[] {
  if (!permissions.canWrite) return [];
  const actions: ContactRowAction[] = [{ id: 'edit', label: 'Edit', disabled: false }];
  if (permissions.canSendMessages) {
    const reason = unreachableReason(contact);
    actions.push({ id: 'sendMessage', label: 'Send Message', disabled: reason !== null, ...(reason === null ? {} : { hint: reason }) });
  }
  if (call !== null) {
    const reason = contact.valid ? call.disabledReason : 'Invalid';
    actions.push({ id: 'call', label: 'Call', disabled: reason !== null, ...(reason === null ? {} : { hint: reason }) });
  }
  if (permissions.canBlock) {
    actions.push(
      contact.blocked === undefined
        ? { id: 'block', label: 'Block', disabled: false }
        : { id: 'block', label: 'Blocked', disabled: true, hint: 'Until they text START' },
    );
  }
  actions.push({ id: 'remove', label: 'Remove', disabled: false });
  return actions;
}
