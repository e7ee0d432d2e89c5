import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { connect, type PDU, type PduFields, type Session } from 'smpp';
import type {
  AvailableNumber,
  Carrier,
  CarrierCapabilities,
  CarrierHandlers,
  DeliveryStatus,
  OutboundMessage,
  SubmitResult,
} from '../carrier.js';
import { concatenationHeader, DATA_CODING, decodeByDataCoding, encodeText, findConcatenation, splitText } from './encoding.js';
import { isDeliveryReceipt, parseReceipt, type ParsedReceipt } from './receipts.js';
import { ESME_ROK, ESME_RX_T_APPN, isRetryableStatus, statusHex, statusText } from './statusCodes.js';

export interface SmppCarrierOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** SMPP over TLS (smpps://); the SMSC's certificate is checked against the system's CAs, or `tlsCa`. */
  tls?: boolean;
  /** PEM of the CA the SMSC's certificate chains to, when it is a private one. */
  tlsCa?: string;
  /** Submits sent and not yet answered; the rest wait. Default 10. */
  windowSize?: number;
  /** Seconds between enquire_links; a link that has not answered by the next one is dropped. Default 30. */
  enquireLinkSeconds?: number;
  /** Reconnect backoff: first delay, doubled after each failure up to the maximum. Defaults 1 and 30. */
  reconnectInitialSeconds?: number;
  reconnectMaxSeconds?: number;
  /** One submit with the whole text in message_payload instead of UDH-concatenated parts. Default false. */
  useMessagePayload?: boolean;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export class SmppBindError extends Error {
  constructor(
    readonly address: string,
    readonly status: number,
  ) {
    super(`SMPP bind to ${address} refused: ${statusText(status)} (${statusHex(status)})`);
    this.name = 'SmppBindError';
  }
}

/** The parts of one submitted message, so each part's receipt maps back to the first part's id. */
interface TrackedMessage {
  carrierMessageId: string;
  total: number;
  delivered: Set<string>;
  sentReported: boolean;
  /** A final status was reported (or the message was given up): later receipts change nothing. */
  final: boolean;
  createdAt: number;
}

interface PendingConcatenation {
  parts: Map<number, string>;
  total: number;
  createdAt: number;
}

/** Receipts and MO parts older than this are forgotten (receipts come within the validity period). */
const TRACKING_TTL_MS = 3 * 24 * 60 * 60 * 1000;
const MO_PARTS_TTL_MS = 60 * 60 * 1000;
const UNBIND_TIMEOUT_MS = 2000;
const STOP_GRACE_MS = 10_000;

const ESM_CLASS_UDHI = 0x40;
const TON_INTERNATIONAL = 1;
const TON_ALPHANUMERIC = 5;
const NPI_E164 = 1;

function refusal(retryable: boolean, errorCode: string, errorText: string): SubmitResult {
  return { accepted: false, retryable, errorCode, errorText };
}

function address(value: string): { ton: number; npi: number; addr: string } {
  if (value.startsWith('+')) return { ton: TON_INTERNATIONAL, npi: NPI_E164, addr: value.slice(1) };
  if (/[^0-9]/.test(value)) return { ton: TON_ALPHANUMERIC, npi: 0, addr: value };
  return { ton: 0, npi: NPI_E164, addr: value };
}

function e164(addr: string | undefined, ton: number | undefined): string {
  const value = addr ?? '';
  return ton === TON_INTERNATIONAL && !value.startsWith('+') ? `+${value}` : value;
}

/** The text and UDH elements of a deliver_sm, from message_payload when present, else short_message. */
function contentOf(pdu: PDU): { udh: Buffer[]; text: string } {
  const dataCoding = pdu.data_coding ?? 0;
  const payload = pdu.message_payload;
  const value = payload !== undefined && payload !== '' ? payload : pdu.short_message;
  if (value === undefined) return { udh: [], text: '' };
  if (typeof value === 'string') return { udh: [], text: value };
  if (Buffer.isBuffer(value)) return { udh: [], text: decodeByDataCoding(value, dataCoding) };
  const text = typeof value.message === 'string' ? value.message : decodeByDataCoding(value.message, dataCoding);
  return { udh: value.udh ?? [], text };
}

/**
 * The SMPP 3.4 adapter: one bind_transceiver session that submits, takes receipts and mobile-originated
 * messages, keeps itself alive with enquire_link and reconnects with backoff.
 */
export class SmppCarrier implements Carrier {
  readonly name = 'smpp' as const;
  readonly capabilities: CarrierCapabilities = { sms: true, mms: false, numberInventory: false, maxSubmitsPerSecond: null, idempotentSubmit: false };

  private readonly windowSize: number;
  private readonly enquireLinkMs: number;
  private readonly reconnectInitialMs: number;
  private readonly reconnectMaxMs: number;

  private handlers: CarrierHandlers | null = null;
  private session: Session | null = null;
  private stopping = false;
  private reconnectDelayMs: number;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private enquireTimer: NodeJS.Timeout | null = null;
  private enquirePending = false;

  private outstanding = 0;
  private readonly windowWaiters: (() => void)[] = [];
  /** Fails each submit awaiting its response on the current session when that session is lost. */
  private readonly awaitingResponse = new Set<() => void>();
  private readonly sendsInProgress = new Set<Promise<SubmitResult>>();
  private concatenationReference = Math.floor(Math.random() * 256);

  private readonly tracked = new Map<string, TrackedMessage>();
  private readonly moParts = new Map<string, PendingConcatenation>();

  constructor(private readonly options: SmppCarrierOptions) {
    this.windowSize = Math.max(1, options.windowSize ?? 10);
    this.enquireLinkMs = (options.enquireLinkSeconds ?? 30) * 1000;
    this.reconnectInitialMs = (options.reconnectInitialSeconds ?? 1) * 1000;
    this.reconnectMaxMs = (options.reconnectMaxSeconds ?? 30) * 1000;
    this.reconnectDelayMs = this.reconnectInitialMs;
  }

  /** Whether a bound session is up (submits fail as retryable while it is not). */
  get bound(): boolean {
    return this.session !== null;
  }

  /** Binds; rejects when the first bind fails (a refused bind is a configuration error, not a blip). */
  async start(handlers: CarrierHandlers): Promise<void> {
    this.handlers = handlers;
    this.stopping = false;
    await this.connectAndBind();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    // Submits in flight get a grace period; past it the disconnect fails them as retryable.
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.sendsInProgress]),
      new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(graceTimer);
    this.stopEnquireLink();
    const session = this.session;
    this.session = null;
    if (session !== null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, UNBIND_TIMEOUT_MS);
        const sent = session.unbind({}, () => {
          clearTimeout(timer);
          resolve();
        });
        if (!sent) {
          clearTimeout(timer);
          resolve();
        }
      });
      session.destroy();
    }
    for (const lose of this.awaitingResponse) lose();
    this.awaitingResponse.clear();
    this.handlers = null;
  }

  async send(message: OutboundMessage): Promise<SubmitResult> {
    if (this.stopping || this.handlers === null) return refusal(true, 'NOT_STARTED', 'The SMPP carrier is not running');
    const task = this.submitMessage(message);
    this.sendsInProgress.add(task);
    try {
      return await task;
    } finally {
      this.sendsInProgress.delete(task);
    }
  }

  availableNumbers(_query: { country: string; limit: number }): Promise<AvailableNumber[]> {
    return Promise.resolve([]);
  }

  buyNumber(_number: string): Promise<{ carrierNumberId: string }> {
    return Promise.reject(
      new Error('SMPP carriers sell no numbers through the protocol: provision the number with the carrier and add it by hand'),
    );
  }

  // --- connection -------------------------------------------------------------------------------------

  private connectAndBind(): Promise<void> {
    const { host, port } = this.options;
    const tls = this.options.tls === true;
    return new Promise<void>((resolve, reject) => {
      const session = connect(tls ? { host, port, tls, ...(this.options.tlsCa === undefined ? {} : { ca: this.options.tlsCa }) } : { host, port });
      let phase: 'binding' | 'bound' | 'failed' = 'binding';
      const fail = (error: Error): void => {
        if (phase !== 'binding') return;
        phase = 'failed';
        session.destroy();
        reject(error);
      };
      session.on('error', (error) => {
        if (phase === 'binding') {
          fail(error);
          return;
        }
        // A malformed PDU stops the package's reader without closing the socket: drop it and reconnect.
        this.options.logger?.warn({ err: error }, 'SMPP connection error');
        session.destroy();
      });
      session.on('close', () => {
        if (phase === 'binding') fail(new Error(`SMPP connection to ${host}:${port} closed before the bind`));
        else if (phase === 'bound') this.onConnectionLost(session);
      });
      // Over TLS the bind waits for the handshake: nothing, the password least, goes out before it.
      session.on(tls ? 'secureConnect' : 'connect', () => {
        const fields: PduFields = { system_id: this.options.systemId, password: this.options.password };
        if (this.options.systemType !== undefined) fields.system_type = this.options.systemType;
        session.bind_transceiver(fields, (pdu) => {
          if (pdu.command_status !== ESME_ROK) {
            fail(new SmppBindError(`${host}:${port}`, pdu.command_status));
            return;
          }
          phase = 'bound';
          this.onBound(session);
          resolve();
        });
      });
      session.on('deliver_sm', (pdu) => {
        this.onDeliverSm(session, pdu);
      });
      session.on('enquire_link', (pdu) => {
        session.send(pdu.response());
      });
      session.on('unbind', (pdu) => {
        session.send(pdu.response());
        session.close();
      });
    });
  }

  private onBound(session: Session): void {
    if (this.stopping) {
      session.destroy();
      return;
    }
    this.session = session;
    this.reconnectDelayMs = this.reconnectInitialMs;
    this.enquirePending = false;
    this.enquireTimer = setInterval(() => {
      if (this.enquirePending) {
        // No answer since the last enquire_link: the link is dead even if TCP has not noticed.
        this.options.logger?.warn('SMPP enquire_link unanswered; reconnecting');
        session.destroy();
        return;
      }
      this.enquirePending = true;
      session.enquire_link({}, () => {
        this.enquirePending = false;
      });
    }, this.enquireLinkMs);
    this.options.logger?.info({ host: this.options.host, port: this.options.port }, 'SMPP bound');
  }

  private stopEnquireLink(): void {
    if (this.enquireTimer !== null) clearInterval(this.enquireTimer);
    this.enquireTimer = null;
  }

  private onConnectionLost(session: Session): void {
    if (this.session !== session) return;
    this.session = null;
    this.stopEnquireLink();
    for (const lose of this.awaitingResponse) lose();
    this.awaitingResponse.clear();
    if (!this.stopping) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, this.reconnectMaxMs);
    this.options.logger?.warn({ delayMs: delay }, 'SMPP connection lost; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connectAndBind().catch((error: unknown) => {
        this.options.logger?.warn({ err: error }, 'SMPP reconnect failed');
        if (!this.stopping) this.scheduleReconnect();
      });
    }, delay);
  }

  // --- submits ----------------------------------------------------------------------------------------

  private async submitMessage(message: OutboundMessage): Promise<SubmitResult> {
    if (message.media.length > 0) return refusal(false, 'MMS_UNSUPPORTED', 'SMPP carries no media');
    const source = address(message.from);
    const destination = address(message.to);
    const common: PduFields = {
      source_addr_ton: source.ton,
      source_addr_npi: source.npi,
      source_addr: source.addr,
      dest_addr_ton: destination.ton,
      dest_addr_npi: destination.npi,
      destination_addr: destination.addr,
      registered_delivery: 1,
      data_coding: DATA_CODING[message.encoding],
    };
    let submits: PduFields[];
    if (this.options.useMessagePayload === true) {
      submits = [{ ...common, esm_class: 0, short_message: Buffer.alloc(0), message_payload: encodeText(message.text, message.encoding) }];
    } else {
      const parts = splitText(message.text, message.encoding);
      if (parts.length !== message.segments) {
        return refusal(
          false,
          'SEGMENT_COUNT',
          `The text splits into ${parts.length} parts but the message was charged for ${message.segments}`,
        );
      }
      const reference = this.nextReference();
      submits = parts.map((part, index) => {
        const octets = encodeText(part, message.encoding);
        if (parts.length === 1) return { ...common, esm_class: 0, short_message: octets };
        const header = concatenationHeader(reference, parts.length, index + 1);
        return { ...common, esm_class: ESM_CLASS_UDHI, short_message: Buffer.concat([header, octets]) };
      });
    }

    let tracking: TrackedMessage | null = null;
    for (const fields of submits) {
      const result = await this.submitOne(fields);
      if (!result.accepted) {
        // A later part refused: the message as a whole did not go; receipts of the parts sent are ignored.
        if (tracking !== null) tracking.final = true;
        return result;
      }
      if (tracking === null) {
        tracking = {
          carrierMessageId: result.carrierMessageId,
          total: submits.length,
          delivered: new Set(),
          sentReported: false,
          final: false,
          createdAt: Date.now(),
        };
      }
      this.track(result.carrierMessageId, tracking);
    }
    if (tracking === null) return refusal(false, 'EMPTY', 'Nothing to submit');
    return { accepted: true, carrierMessageId: tracking.carrierMessageId };
  }

  private nextReference(): number {
    this.concatenationReference = (this.concatenationReference + 1) % 256;
    return this.concatenationReference;
  }

  private async submitOne(fields: PduFields): Promise<SubmitResult> {
    await this.acquireWindow();
    try {
      const session = this.session;
      if (session === null) return refusal(true, 'NOT_BOUND', 'The SMPP session is not bound (reconnecting)');
      return await new Promise<SubmitResult>((resolve) => {
        const lost = (): void => {
          resolve(refusal(true, 'CONNECTION_LOST', 'The SMPP connection was lost before the submit was answered'));
        };
        this.awaitingResponse.add(lost);
        const written = session.submit_sm(fields, (pdu) => {
          this.awaitingResponse.delete(lost);
          const status = pdu.command_status;
          if (status === ESME_ROK && pdu.message_id !== undefined && pdu.message_id !== '') {
            resolve({ accepted: true, carrierMessageId: pdu.message_id });
          } else if (status === ESME_ROK) {
            resolve(refusal(false, statusHex(status), 'submit_sm_resp without a message_id'));
          } else {
            resolve(refusal(isRetryableStatus(status), statusHex(status), statusText(status)));
          }
        });
        if (!written) {
          this.awaitingResponse.delete(lost);
          lost();
        }
      });
    } finally {
      this.releaseWindow();
    }
  }

  private acquireWindow(): Promise<void> {
    if (this.outstanding < this.windowSize) {
      this.outstanding++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.windowWaiters.push(resolve));
  }

  private releaseWindow(): void {
    const next = this.windowWaiters.shift();
    // The slot passes straight to the next waiter.
    if (next !== undefined) next();
    else this.outstanding--;
  }

  private track(partId: string, message: TrackedMessage): void {
    const cutoff = Date.now() - TRACKING_TTL_MS;
    for (const [id, entry] of this.tracked) {
      if (entry.createdAt >= cutoff) break;
      this.tracked.delete(id);
    }
    this.tracked.set(partId, message);
  }

  // --- deliver_sm -------------------------------------------------------------------------------------

  /** Answers only once the handler resolved: a process that dies before leaves the SMSC to redeliver. */
  private onDeliverSm(session: Session, pdu: PDU): void {
    void this.handleDeliverSm(pdu).then(
      () => session.send(pdu.response({ command_status: ESME_ROK })),
      (error: unknown) => {
        this.options.logger?.error({ err: error }, 'SMPP deliver_sm not taken; the SMSC will retry');
        session.send(pdu.response({ command_status: ESME_RX_T_APPN }));
      },
    );
  }

  private async handleDeliverSm(pdu: PDU): Promise<void> {
    const handlers = this.handlers;
    if (handlers === null) throw new Error('The SMPP carrier is not running');
    const { udh, text } = contentOf(pdu);
    if (isDeliveryReceipt(pdu.esm_class ?? 0)) {
      const receipt = parseReceipt(text, { receiptedMessageId: pdu.receipted_message_id, messageState: pdu.message_state });
      if (receipt === null) {
        this.options.logger?.warn({ text }, 'SMPP receipt without a message id or state; ignored');
        return;
      }
      await this.onReceipt(handlers, receipt);
      return;
    }
    const from = e164(pdu.source_addr, pdu.source_addr_ton);
    const to = e164(pdu.destination_addr, pdu.dest_addr_ton);
    let whole = text;
    const concatenation = findConcatenation(udh);
    if (concatenation !== null && concatenation.total > 1) {
      const assembled = this.collectPart(`${from}|${to}|${concatenation.reference}|${concatenation.total}`, concatenation, text);
      // Earlier parts are answered on arrival (an SMSC may wait for the answer before the next part).
      if (assembled === null) return;
      whole = assembled;
    }
    await handlers.inbound({ carrierMessageId: randomUUID(), from, to, text: whole, media: [], receivedAt: new Date() });
  }

  private collectPart(key: string, part: { total: number; sequence: number }, text: string): string | null {
    const now = Date.now();
    for (const [id, entry] of this.moParts) if (entry.createdAt < now - MO_PARTS_TTL_MS) this.moParts.delete(id);
    const pending = this.moParts.get(key) ?? { parts: new Map<number, string>(), total: part.total, createdAt: now };
    pending.parts.set(part.sequence, text);
    this.moParts.set(key, pending);
    if (pending.parts.size < pending.total) return null;
    this.moParts.delete(key);
    let whole = '';
    for (let sequence = 1; sequence <= pending.total; sequence++) whole += pending.parts.get(sequence) ?? '';
    return whole;
  }

  private async onReceipt(handlers: CarrierHandlers, receipt: ParsedReceipt): Promise<void> {
    const report = (carrierMessageId: string, status: DeliveryStatus): Promise<void> =>
      handlers.status({
        carrierMessageId,
        status,
        errorCode: status === 'delivered' || status === 'sent' ? null : receipt.errorCode,
        errorText: status === 'delivered' || status === 'sent' ? null : receipt.state,
        at: new Date(),
      });
    const message = this.tracked.get(receipt.messageId);
    // Unknown (sent before a restart, or by another process): reported under its own id.
    if (message === undefined) return report(receipt.messageId, receipt.status);
    if (message.final) return;
    switch (receipt.status) {
      case 'delivered':
        message.delivered.add(receipt.messageId);
        if (message.delivered.size < message.total) return;
        await report(message.carrierMessageId, 'delivered');
        message.final = true;
        return;
      case 'sent':
        if (message.sentReported) return;
        await report(message.carrierMessageId, 'sent');
        message.sentReported = true;
        return;
      case 'undelivered':
      case 'failed':
        await report(message.carrierMessageId, receipt.status);
        message.final = true;
        return;
    }
  }
}
