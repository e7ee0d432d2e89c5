/**
 * What the messaging engine needs from a carrier. Three adapters implement it: the simulator (the embedded
 * default), SMPP 3.4 and Twilio. The engine owns the message table (the queue), rates and quiet hours; an
 * adapter only submits, reports what the carrier says, and lists and buys numbers where the carrier can.
 */

export type CarrierName = 'simulator' | 'smpp' | 'twilio';

export type MessageEncoding = 'GSM-7' | 'UCS-2';

export interface MediaItem {
  /** A URL the carrier can fetch (an expiring signed URL for our own media). */
  url: string;
  contentType: string;
}

export interface OutboundMessage {
  /** Our message id: carriers that take a reference get it, and it ties receipts back when they echo it. */
  id: string;
  /** The account the message is sent for: only its own media files are signed for the carrier. */
  accountId: string;
  /** The sender: an E.164 number or an alphanumeric sender id. */
  from: string;
  /** E.164. */
  to: string;
  text: string;
  encoding: MessageEncoding;
  /** The number of segments the engine charged for; an adapter never splits differently. */
  segments: number;
  media: MediaItem[];
}

/**
 * A submit the carrier accepted (it has its own id now) or refused before accepting. A refusal is final
 * unless `retryable` (a throttle, a lost connection): the engine refunds a final refusal.
 */
export type SubmitResult =
  | { accepted: true; carrierMessageId: string }
  | { accepted: false; retryable: boolean; errorCode: string; errorText: string };

export type DeliveryStatus = 'sent' | 'delivered' | 'undelivered' | 'failed';

/** A delivery receipt or status callback. */
export interface StatusReport {
  carrierMessageId: string;
  status: DeliveryStatus;
  /** The carrier's own code and text (SMPP `err`/`stat`, Twilio ErrorCode/ErrorMessage). */
  errorCode: string | null;
  errorText: string | null;
  at: Date;
}

/** A mobile-originated message. */
export interface InboundMessage {
  carrierMessageId: string;
  from: string;
  to: string;
  text: string;
  media: MediaItem[];
  receivedAt: Date;
}

/** Where an adapter hands what arrives; the engine's handlers write it in a transaction and resolve after. */
export interface CarrierHandlers {
  status(report: StatusReport): Promise<void>;
  /** Many receipts at once, written together; adapters that batch (the simulator) use it. */
  statusMany(reports: readonly StatusReport[]): Promise<void>;
  inbound(message: InboundMessage): Promise<void>;
}

export interface CarrierCapabilities {
  sms: boolean;
  mms: boolean;
  /** Whether the carrier sells numbers through its API (simulator, Twilio) or numbers are provisioned outside (SMPP). */
  numberInventory: boolean;
  /** Submits per second the connection allows, when the carrier states one. */
  maxSubmitsPerSecond: number | null;
  /**
   * A repeated submit of the same message id is the same message (the simulator keys on it). Only then may
   * the engine resubmit a message whose first submit has an unknown outcome (a worker died mid-submit).
   */
  idempotentSubmit: boolean;
}

export interface AvailableNumber {
  /** E.164. */
  number: string;
  country: string;
  capabilities: { sms: boolean; mms: boolean };
}

/**
 * Click-to-call (docs/calls.md): the carrier rings the user's own phone from the account's number and, once
 * they answer, connects them to the contact, showing the account's number as the caller.
 */
export interface BridgedCall {
  /** Our call id and its account: the carrier's status reports name both, so they update this call and no other. */
  callId: string;
  accountId: string;
  /** The account's number the call comes from (E.164). */
  from: string;
  /** The user's own phone, rung first (E.164). */
  agent: string;
  /** The contact, dialled once the user answers (E.164). */
  destination: string;
}

export interface Carrier {
  readonly name: CarrierName;
  readonly capabilities: CarrierCapabilities;
  /** Connects (an SMPP bind) and starts handing receipts and inbound messages to the handlers. */
  start(handlers: CarrierHandlers): Promise<void>;
  /** Stops taking new submits, waits for the ones in flight, disconnects. */
  stop(): Promise<void>;
  send(message: OutboundMessage): Promise<SubmitResult>;
  /**
   * Submits several messages at once where the carrier can do better than one by one (the simulator writes
   * them in one statement). Results come in the order of `messages`. The dispatcher uses it when present.
   */
  sendMany?(messages: readonly OutboundMessage[]): Promise<SubmitResult[]>;
  /**
   * Places a voice call to `to` that reads out a 6-digit code, for verifying a hosted number. Carriers
   * without voice (SMPP) leave it out, and hosted numbers on them cannot be verified by call.
   */
  placeVerificationCall?(call: { from: string | null; to: string; code: string }): Promise<void>;
  /**
   * Places a click-to-call (BridgedCall); resolves with the carrier's id of the call. Carriers without voice
   * (SMPP) leave it out, and their numbers cannot place calls.
   */
  placeBridgedCall?(call: BridgedCall): Promise<{ carrierCallId: string }>;
  /** Numbers for sale; an adapter without an inventory answers an empty list. */
  availableNumbers(query: { country: string; limit: number }): Promise<AvailableNumber[]>;
  /** Buys a number from `availableNumbers`; resolves with the carrier's id for it. */
  buyNumber(number: string): Promise<{ carrierNumberId: string }>;
}
