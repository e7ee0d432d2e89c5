import type { ContactRow, MessageRow } from '../../platform/db/schema/index.js';

/*
 * What the compliance keywords (keywords.ts) and the opt-in confirmations they call (optInConfirmation.ts)
 * are given; apart from both, so that neither imports the other for it.
 */

/** What an account tells its contacts about itself (accounts.support, and its name). */
export interface SupportDetails {
  name: string;
  phone?: string | undefined;
  email?: string | undefined;
  website?: string | undefined;
}

/** accounts.support as stored (jsonb), read defensively: only non-empty strings count. */
export function supportDetails(accountName: string, support: unknown): SupportDetails {
  const record = typeof support === 'object' && support !== null ? (support as Record<string, unknown>) : {};
  const text = (key: string): string | undefined => {
    const value = record[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  return { name: text('name') ?? accountName, phone: text('phone'), email: text('email'), website: text('website') };
}

export interface KeywordContext {
  accountId: string;
  support: SupportDetails;
  contact: ContactRow;
  conversationId: string;
  phoneNumber: { id: string; number: string };
  /** The incoming message, already written. */
  message: MessageRow;
  now: Date;
}
