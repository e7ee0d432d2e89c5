import type { PhoneNumber } from '@parley/shared';
import type { PhoneNumberRow } from '../../platform/db/schema/index.js';

/** The phone number entity from its row; never the verification code's hash nor the letter of authorisation. */
export function presentPhoneNumber(row: PhoneNumberRow): PhoneNumber {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    status: row.status,
    country: row.country,
    supportedDestinations: row.supportedDestinations,
    hosted: row.hosted,
    verified: row.verifiedAt !== null,
    type: row.type,
    forwardTo: row.forwardTo,
    universalReply: row.universalReply,
    carrier: row.carrier,
    messagesPerSecond: row.messagesPerSecond,
    created: { at: row.createdAt.toISOString() },
  };
}
