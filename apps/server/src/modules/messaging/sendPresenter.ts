import type { InvalidRecipient, SendMessageResult } from '@parley/shared';
import { presentMessage } from './messagePresenter.js';
import type { SendMessagesResult, UnsendableRecipient } from './messageSenderTypes.js';

/** A recipient left out, as the contract's Contact with its error, and what the web app reads. */
function presentInvalid(left: UnsendableRecipient): InvalidRecipient {
  const { contact } = left;
  return {
    id: contact.id,
    firstName: contact.firstName,
    lastName: contact.lastName,
    // The contract's schemas allow no null: an absent e-mail is left out.
    ...(contact.email === null ? {} : { email: contact.email }),
    mobile: { number: contact.mobileNumber, country: contact.mobileCountry },
    error: { code: left.error.code, description: left.error.message },
    contact: { id: contact.id },
    conversation: left.conversationId === null ? null : { id: left.conversationId },
    reason: left.error.message,
  };
}

/**
 * The answer of POST .../messages, the contract's SendMessagesResponse. `estimatedPrice` is the exact
 * 4-decimal charge written as a JSON number, as the contract has it: nothing is computed with it, and a
 * double keeps a decimal of this size exactly (docs/decisions.md).
 */
export function presentSendResult(result: SendMessagesResult): SendMessageResult {
  return {
    data: {
      messages: result.messages.map(presentMessage),
      invalid: result.unsendable.map(presentInvalid),
      requested: result.requested,
      valid: result.messages.length,
      estimatedPrice: Number(result.charged),
    },
  };
}
