import type { AddressInfo } from 'node:net';
import { createServer, type PDU, type PduFields, type Server, type Session } from 'smpp';

/*
 * An SMSC for the adapter's tests: the `smpp` package's own server, speaking real SMPP 3.4 over TCP.
 * It checks the bind, records submits, answers them (or lets a test decide how and when), answers
 * enquire_link and sends deliver_sm on demand.
 */

export const SMSC_SYSTEM_ID = 'parley';
export const SMSC_PASSWORD = 'secret12';

/** Decides the answer to one submit_sm; may wait (a slow SMSC). Default: accepted with the next id. */
export type SubmitResponder = (pdu: PDU, nextId: string) => PduFields | Promise<PduFields>;

export class TestSmsc {
  readonly submits: PDU[] = [];
  binds = 0;
  enquireLinksReceived = 0;
  /** Submits received and not yet answered, now and at most. */
  outstanding = 0;
  maxOutstanding = 0;
  respond: SubmitResponder = (_pdu, nextId) => ({ message_id: nextId });
  private nextId = 0;
  private readonly bound: Session[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** With `tls` (a key and certificate): an SMSC speaking SMPP over TLS. */
  static async start(options: { tls?: { key: string; cert: string } } = {}): Promise<TestSmsc> {
    const server = options.tls ? createServer(options.tls) : createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        resolve();
      });
    });
    const smsc = new TestSmsc(server, (server.address() as AddressInfo).port);
    server.on('session', (session) => {
      smsc.accept(session);
    });
    return smsc;
  }

  private accept(session: Session): void {
    session.on('error', () => undefined);
    session.on('close', () => {
      const index = this.bound.indexOf(session);
      if (index >= 0) this.bound.splice(index, 1);
    });
    session.on('bind_transceiver', (pdu) => {
      if (pdu.system_id !== SMSC_SYSTEM_ID || pdu.password !== SMSC_PASSWORD) {
        session.send(pdu.response({ command_status: 0x0e }));
        return;
      }
      this.binds++;
      this.bound.push(session);
      session.send(pdu.response({ system_id: 'test-smsc' }));
    });
    session.on('submit_sm', (pdu) => {
      this.submits.push(pdu);
      this.outstanding++;
      this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding);
      this.nextId++;
      void Promise.resolve(this.respond(pdu, `msg-${this.nextId}`)).then((fields) => {
        this.outstanding--;
        session.send(pdu.response(fields));
      });
    });
    session.on('enquire_link', (pdu) => {
      this.enquireLinksReceived++;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu) => {
      session.send(pdu.response());
    });
  }

  private current(): Session {
    const session = this.bound[this.bound.length - 1];
    if (session === undefined) throw new Error('No bound session');
    return session;
  }

  /** Sends a deliver_sm to the bound client and resolves with its deliver_sm_resp. */
  deliver(fields: PduFields): Promise<PDU> {
    const session = this.current();
    return new Promise((resolve) => {
      session.deliver_sm(fields, resolve);
    });
  }

  /** Sends deliver_sm without waiting: resolves at once with a promise of the answer. */
  deliverLater(fields: PduFields): { response: Promise<PDU> } {
    return { response: this.deliver(fields) };
  }

  enquireLink(): Promise<PDU> {
    const session = this.current();
    return new Promise((resolve) => {
      session.enquire_link({}, resolve);
    });
  }

  /** Drops every connection, as an SMSC restart would. */
  dropConnections(): void {
    for (const session of [...this.server.sessions]) session.destroy();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }
}
