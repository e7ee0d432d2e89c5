import type { Call } from '@parley/shared';
import type { CallRow } from '../../platform/db/schema/index.js';

/** A call as the API and the inbox's event show it. */
export function presentCall(row: CallRow): Call {
  return {
    id: row.id,
    conversation: { id: row.conversationId },
    contact: { id: row.contactId },
    ...(row.phoneNumberId === null ? {} : { phoneNumber: { id: row.phoneNumberId } }),
    direction: row.direction,
    status: row.status,
    source: row.source,
    from: row.fromNumber,
    to: row.toNumber,
    startedAt: row.startedAt.toISOString(),
    durationSeconds: row.durationSeconds,
    ...(row.recordingUrl === null ? {} : { recordingUrl: row.recordingUrl }),
    attributes: row.attributes,
  };
}
