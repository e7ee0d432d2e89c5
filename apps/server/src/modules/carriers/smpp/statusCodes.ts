/** SMPP 3.4 command_status values this adapter names or acts on (5.1.3). */
export const ESME_ROK = 0x00;
export const ESME_RMSGQFUL = 0x14;
export const ESME_RTHROTTLED = 0x58;
/** Answered to a deliver_sm the engine could not take: the SMSC keeps the message and retries. */
export const ESME_RX_T_APPN = 0x64;

const NAMES: Record<number, string> = {
  0x01: 'Message length is invalid',
  0x02: 'Command length is invalid',
  0x03: 'Invalid command id',
  0x04: 'Incorrect bind status for the command',
  0x05: 'Already bound',
  0x08: 'System error',
  0x0a: 'Invalid source address',
  0x0b: 'Invalid destination address',
  0x0c: 'Invalid message id',
  0x0d: 'Bind failed',
  0x0e: 'Invalid password',
  0x0f: 'Invalid system id',
  0x14: 'Message queue full',
  0x33: 'Invalid number of destinations',
  0x45: 'submit_sm failed',
  0x58: 'Throttling error',
  0x61: 'Invalid scheduled delivery time',
  0x62: 'Invalid validity period',
  0x64: 'ESME receiver temporary error',
  0x65: 'ESME receiver permanent error',
  0x66: 'ESME receiver reject message error',
};

/** 0x00000058 */
export function statusHex(status: number): string {
  return `0x${status.toString(16).toUpperCase().padStart(8, '0')}`;
}

export function statusText(status: number): string {
  return NAMES[status] ?? `command_status ${statusHex(status)}`;
}

/** Errors worth a retry of the same submit later: the SMSC is busy, not refusing the message. */
export function isRetryableStatus(status: number): boolean {
  return status === ESME_RTHROTTLED || status === ESME_RMSGQFUL;
}
