import type { ContactRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

export type ContactReachability = 'reachable' | 'blocked' | 'optedOut' | 'invalid';

export const CONTACT_BLOCKED_MESSAGE = 'This contact is blocked.';
export const CONTACT_OPTED_OUT_MESSAGE = 'This contact has opted out of messages.';
export const CONTACT_INVALID_MESSAGE = 'This contact has invalid data.';

/** Whether the account may text this contact at all (list consent is the sender's own check). */
export function contactReachability(contact: Pick<ContactRow, 'blockedAt' | 'optedOutAt' | 'valid'>): ContactReachability {
  if (contact.blockedAt !== null) return 'blocked';
  if (contact.optedOutAt !== null) return 'optedOut';
  if (!contact.valid) return 'invalid';
  return 'reachable';
}

/** Refuses (409) a send to a blocked, opted-out or invalid contact, saying which. */
export function assertContactReachable(contact: Pick<ContactRow, 'blockedAt' | 'optedOutAt' | 'valid' | 'errorDescription'>): void {
  const state = contactReachability(contact);
  switch (state) {
    case 'reachable':
      return;
    case 'blocked':
      throw new AppError(409, 'conflict', CONTACT_BLOCKED_MESSAGE);
    case 'optedOut':
      throw new AppError(409, 'conflict', CONTACT_OPTED_OUT_MESSAGE);
    case 'invalid':
      throw new AppError(
        409,
        'conflict',
        contact.errorDescription === null ? CONTACT_INVALID_MESSAGE : `${CONTACT_INVALID_MESSAGE} ${contact.errorDescription}`,
      );
  }
}
