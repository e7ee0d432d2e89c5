import type { DeliveryStatus } from '../carrier.js';

/*
 * SMPP 3.4 delivery receipts (appendix B): the text `id:… sub:… dlvr:… submit date:… done date:… stat:…
 * err:… text:…` in short_message or message_payload, and the receipted_message_id / message_state TLVs
 * that many SMSCs add. The TLVs win when present: they are typed, the text is only conventional.
 */

export interface ParsedReceipt {
  messageId: string;
  status: DeliveryStatus;
  /** The receipt's stat word (DELIVRD, UNDELIV ...). */
  state: string;
  /** The err field, or null when absent or all zeros. */
  errorCode: string | null;
}

/** esm_class bits 2-5: 0x04 SMSC delivery receipt, 0x20 intermediate delivery notification. */
export function isDeliveryReceipt(esmClass: number): boolean {
  const type = esmClass & 0x3c;
  return type === 0x04 || type === 0x20;
}

const STATUS_BY_STATE: Record<string, DeliveryStatus> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  REJECTD: 'failed',
  EXPIRED: 'failed',
  DELETED: 'failed',
  UNKNOWN: 'failed',
  ACCEPTD: 'sent',
  ENROUTE: 'sent',
};

/** message_state TLV values (SMPP 3.4 5.2.28) as receipt stat words. */
const STATE_BY_TLV: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

function field(text: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}:(\\S*)`, 'i').exec(text);
  return match?.[1] ?? null;
}

/** The receipt, or null when neither the text nor the TLVs name a message and a state. */
export function parseReceipt(
  text: string,
  tlvs: { receiptedMessageId?: string | undefined; messageState?: number | undefined } = {},
): ParsedReceipt | null {
  const messageId = tlvs.receiptedMessageId !== undefined && tlvs.receiptedMessageId !== ''
    ? tlvs.receiptedMessageId
    : field(text, 'id');
  const tlvState = tlvs.messageState === undefined ? undefined : STATE_BY_TLV[tlvs.messageState];
  const state = (tlvState ?? field(text, 'stat') ?? '').toUpperCase();
  if (messageId === null || messageId === '' || state === '') return null;
  const err = field(text, 'err');
  return {
    messageId,
    status: STATUS_BY_STATE[state] ?? 'failed',
    state,
    errorCode: err === null || /^0*$/.test(err) ? null : err,
  };
}
