/**
 * The JSON body of a delivery (docs/notifications.md, "What is sent"): the event type (kebab-case), when it
 * happened, the account, and the event's data as the API presents it. This exact text is signed and sent,
 * and kept with the delivery for the log.
 */
export function deliveryBody(type: string, at: string, accountId: string, data: unknown): string {
  return JSON.stringify({ type, timestamp: at, accountId, data });
}

/** The webhook-id of an outbox event, the same on every try and resend (docs/notifications.md). */
export const eventIdOf = (outboxEventId: string): string => `evt_${outboxEventId.replace('.', '_')}`;
