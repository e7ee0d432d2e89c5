import type { DigestLine } from './notificationMails.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const clip = (value: string, max = 80): string => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/** A delivery's body (deliveryBody.ts) as one line of a digest. */
export function digestLine(body: string): DigestLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { type: 'event', at: '', summary: '' };
  }
  if (!isRecord(parsed)) return { type: 'event', at: '', summary: '' };
  const type = text(parsed.type);
  const at = text(parsed.timestamp);
  const data = isRecord(parsed.data) ? parsed.data : {};
  return { type, at, summary: summaryOf(data) };
}

function summaryOf(data: Record<string, unknown>): string {
  const { message, contact, conversation } = data;
  if (isRecord(message)) {
    const direction = message.outgoing === true ? 'outgoing' : 'incoming';
    return `${direction} message (${text(message.status)}) "${clip(text(message.message))}"`;
  }
  if (isRecord(contact)) {
    const name = [text(contact.firstName), text(contact.lastName)].filter((part) => part !== '').join(' ');
    const mobile = isRecord(contact.mobile) ? text(contact.mobile.number) : '';
    return [name, mobile].filter((part) => part !== '').join(' ') || text(contact.id);
  }
  if (isRecord(conversation)) return `conversation ${text(conversation.id)}`;
  return '';
}
