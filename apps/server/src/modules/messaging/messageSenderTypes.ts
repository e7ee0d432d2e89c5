import type { AttributeFilter, ContactByMobile, MessageMedia, PhoneNumberFilter } from '@parley/shared';
import type { ContactRow, MessageRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/** Who asks for the send: a person (must have verified their e-mail), an API client, or Parley itself. */
export type SendActor = { kind: 'user'; userId: string } | { kind: 'apiClient'; clientId: string } | { kind: 'system' };

export interface SendMessagesInput {
  accountId: string;
  actor: SendActor;
  contactIds?: readonly string[];
  /** Contacts named by their mobile: found, or added in the send's transaction (docs/api.md). */
  contactsByMobile?: readonly ContactByMobile[];
  conversationIds?: readonly string[];
  /**
   * The account's contacts that carry every tag and meet every attribute comparison are texted too (the
   * contract's `filters`); filters naming nothing add nobody.
   */
  filters?: { tags: readonly string[]; attributes: readonly AttributeFilter[] } | null;
  /** With tokens; '' for a media-only message. */
  template: string;
  media?: readonly MessageMedia[];
  phoneNumberFilter?: PhoneNumberFilter | null;
  /** The saved template the text came from, a campaign execution, an automatic reply's kind. */
  templateId?: string | null;
  jobId?: string | null;
  eventType?: string | null;
  /** The ledger entry's text; by default it names the recipient or the count. */
  chargeDescription?: string;
  /**
   * Send at once although quiet hours would hold the message: the sender confirmed it. Only for one
   * recipient outside a campaign (docs/messaging.md, "Quiet hours").
   */
  sendNow?: boolean;
  /** A campaign execution charged twice with one key is charged once. */
  chargeIdempotencyKey?: string;
  /**
   * When no recipient can be sent to: 'throw' (the API: one recipient's own reason, or a 400 for several)
   * or 'return' the empty result with the reasons (a campaign records them).
   */
  whenNoneSendable?: 'throw' | 'return';
  now?: Date;
}

/** A recipient left out, and the error that says why (the API answers it when it was the only one). */
export interface UnsendableRecipient {
  contactId: string;
  /** Who it is, for the answer's `invalid` (the contract's Contact). */
  contact: Pick<ContactRow, 'id' | 'firstName' | 'lastName' | 'email' | 'mobileNumber' | 'mobileCountry'>;
  conversationId: string | null;
  error: AppError;
}

export interface SendMessagesResult {
  /** The queued messages, in the order of the recipients. */
  messages: MessageRow[];
  unsendable: UnsendableRecipient[];
  /** The recipients the send was asked for, each once: those texted and those left out. */
  requested: number;
  /** What the account was charged, 4 decimals. */
  charged: string;
}

// One wording for the API and the inbox (packages/shared conversations contract).
export { CONVERSATION_CLOSED_MESSAGE } from '@parley/shared';
export const CONVERSATION_NUMBER_INACTIVE_MESSAGE = 'The phone number of this conversation is no longer active.';
export const MESSAGE_EMPTY_FOR_CONTACT_MESSAGE = "The message is empty for this contact: its tokens have no values.";
export const NONE_SENDABLE_MESSAGE = 'None of the recipients can be sent this message.';
export { SEND_NOW_ONE_RECIPIENT_MESSAGE } from '@parley/shared';
export const CONTACT_NOT_FOUND = 'The contact';
export const CONVERSATION_NOT_FOUND = 'The conversation';
export { SEND_FILTERS_EMPTY_MATCH_MESSAGE, sendFiltersTooManyMessage } from '@parley/shared';

export const messageTooLong = (max: number): AppError =>
  new AppError(400, 'bad_request', `The message is longer than ${String(max)} characters for this contact.`);

export const priceUnavailable = (country: string, kind: 'sms' | 'mms'): AppError =>
  new AppError(
    400,
    'bad_request',
    kind === 'mms'
      ? `Your plan has no MMS price for ${country}: send the message without media.`
      : `Your plan has no price for messages to ${country}.`,
  );
