/**
 * The part of the `smpp` package (0.5.1, untyped) that the SMPP carrier and its tests use. PDUs carry
 * their fields as properties; only the fields read or written here are declared.
 */
declare module 'smpp' {
  import { EventEmitter } from 'node:events';
  import { Server as NetServer } from 'node:net';

  /** A decoded short_message or message_payload: the text decoded by data_coding, UDH elements split. */
  export interface DecodedMessage {
    /** Each information element as a buffer: id, length, data. */
    udh?: Buffer[];
    /** A string when the package knows the data_coding, the raw octets otherwise. */
    message: string | Buffer;
  }

  /** An outgoing message the package encodes: the whole UDH (length octet first) and the text. */
  export interface OutgoingMessage {
    udh?: Buffer;
    message: string | Buffer;
  }

  export interface PduFields {
    command_status?: number;
    sequence_number?: number;
    system_id?: string;
    password?: string;
    system_type?: string;
    interface_version?: number;
    message_id?: string;
    service_type?: string;
    source_addr_ton?: number;
    source_addr_npi?: number;
    source_addr?: string;
    dest_addr_ton?: number;
    dest_addr_npi?: number;
    destination_addr?: string;
    esm_class?: number;
    registered_delivery?: number;
    data_coding?: number | null;
    /** Raw octets (sent as given) or text the package encodes by data_coding. */
    short_message?: Buffer | string | OutgoingMessage;
    message_payload?: Buffer | string | OutgoingMessage;
    receipted_message_id?: string;
    message_state?: number;
  }

  export class PDU {
    constructor(command: string, options?: PduFields);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    system_id?: string;
    password?: string;
    system_type?: string;
    interface_version?: number;
    message_id?: string;
    service_type?: string;
    source_addr_ton?: number;
    source_addr_npi?: number;
    source_addr?: string;
    dest_addr_ton?: number;
    dest_addr_npi?: number;
    destination_addr?: string;
    esm_class?: number;
    registered_delivery?: number;
    data_coding?: number | null;
    /** Decoded on arrival. */
    short_message?: Buffer | string | DecodedMessage;
    message_payload?: Buffer | string | DecodedMessage;
    receipted_message_id?: string;
    message_state?: number;
    isResponse(): boolean;
    response(options?: PduFields): PDU;
  }

  export type ResponseCallback = (pdu: PDU) => void;
  export type PduCommand = (options: PduFields, responseCallback?: ResponseCallback) => boolean;

  export class Session extends EventEmitter {
    /** Writes a PDU; false when the socket is no longer writable. */
    send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
    bind_transceiver: PduCommand;
    submit_sm: PduCommand;
    deliver_sm: PduCommand;
    enquire_link: PduCommand;
    unbind: PduCommand;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    on(event: 'connect' | 'secureConnect' | 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: string, listener: (pdu: PDU) => void): this;
  }

  export class Server extends NetServer {
    sessions: Session[];
    on(event: 'session', listener: (session: Session) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  /** With key and cert: a TLS server (tls.Server). */
  export function createServer(options: { key: string | Buffer; cert: string | Buffer }, listener?: (session: Session) => void): Server;
  export function createServer(listener?: (session: Session) => void): Server;
  /** With `tls`: tls.connect with these options (ca, servername ...); the session emits 'secureConnect' once secure. */
  export function connect(
    options: { host: string; port: number; tls?: boolean; ca?: string | Buffer; servername?: string },
    listener?: () => void,
  ): Session;
}
