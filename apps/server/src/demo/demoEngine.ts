import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { buildCarrierRegistry } from '../modules/carriers/index.js';
import type { CarrierRegistry } from '../modules/carriers/index.js';
import { sendFromPhone } from '../modules/carriers/index.js';
import type { Config } from '../platform/config.js';
import { queryRows, type Database } from '../platform/db/client.js';
import { MessageDispatcher } from '../modules/messaging/index.js';
import { createMessageHandlers } from '../modules/messaging/index.js';

/** How long the demo waits for the simulated network to settle before it gives up. */
const SETTLE_TIMEOUT_MS = 120_000;
const POLL_MS = 150;

export class DemoTimeoutError extends Error {
  constructor(what: string) {
    super(`The simulated network did not settle in ${String(SETTLE_TIMEOUT_MS / 1000)} s (${what}).`);
    this.name = 'DemoTimeoutError';
  }
}

/**
 * The worker's part of the server, for the demo's few minutes: the carriers started with the engine's
 * handlers (the simulator's loop hands receipts and the virtual phones' messages to the engine) and the
 * message dispatcher. So everything the demo sends and receives takes the product's own path, and the
 * ledger, the events and the reports are what they would be in the app.
 */
export class DemoEngine {
  private constructor(
    private readonly database: Database,
    readonly carriers: CarrierRegistry,
    private readonly dispatcher: MessageDispatcher,
    private readonly publicUrl: string,
    private readonly accountId: string,
  ) {}

  static async start(config: Config, database: Database, log: Logger, accountId: string): Promise<DemoEngine> {
    const carriers = buildCarrierRegistry(config, database, log);
    await carriers.start(createMessageHandlers({ database, log }));
    const dispatcher = new MessageDispatcher({ database, carriers, log: log.child({ component: 'dispatcher' }), pollIntervalMs: 100 });
    await dispatcher.start();
    return new DemoEngine(database, carriers, dispatcher, config.publicUrl, accountId);
  }

  async stop(): Promise<void> {
    await this.dispatcher.stop();
    await this.carriers.stop();
  }

  /** A virtual phone texts the account's number, as 'Text from a new phone' on the simulator page does. */
  async textFrom(phone: string, to: string, body: string): Promise<void> {
    await sendFromPhone(this.database.db, { phone, to, body, picture: false, publicUrl: this.publicUrl });
  }

  /**
   * Waits until the account has received `inbound` messages in all and nothing it sent is still on its way:
   * none queued, being handed over, or sent and waiting for its receipt.
   */
  async settle(inbound: number): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const [state] = await queryRows<{ received: number; moving: number }>(
        this.database.db,
        sql`select count(*) filter (where direction = 'inbound')::int as received,
                   count(*) filter (where direction = 'outbound' and status in ('queued', 'sending', 'sent'))::int as moving
              from messages where account_id = ${this.accountId}`,
      );
      if (state !== undefined && state.received >= inbound && state.moving === 0) return;
      if (Date.now() > deadline) throw new DemoTimeoutError(`${String(state?.moving ?? 0)} messages on their way`);
      this.dispatcher.wake();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** How many messages the account has received so far. */
  async received(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      this.database.db,
      sql`select count(*)::int as n from messages where account_id = ${this.accountId} and direction = 'inbound'`,
    );
    return row?.n ?? 0;
  }
}
