import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { carrierSettings } from '../../platform/db/schema/index.js';
import { existingSecretsCipher, SecretsKeyMissingError } from '../../platform/secrets/keyring.js';
import type { AvailableNumber, Carrier, CarrierCapabilities, CarrierHandlers, CarrierName, OutboundMessage, SubmitResult } from './carrier.js';
import { connectionAdapter, loadCarrierConnection, type CarrierConnection } from './connections.js';
import { createCarrierRegistry, type CarrierFactories, type CarrierRegistry } from './registry.js';
import { SimulatorCarrier } from './simulator/simulatorCarrier.js';

/** How often an account's connection looks whether its row changed (another process may have changed it). */
const CONNECTION_RECHECK_MS = 10_000;

export interface CarrierRegistryOptions {
  /** Tests shorten the recheck of accounts' connections. */
  connectionRecheckMs?: number;
}

/**
 * The deployment's carriers as the config describes them. The simulator is the embedded default; SMPP and
 * Twilio join when their settings are present; accounts' own connections come from carrier_settings.
 */
export function buildCarrierRegistry(config: Config, database: Database, log: Logger, options: CarrierRegistryOptions = {}): CarrierRegistry {
  const { carriers } = config;
  const deployment: CarrierFactories['deployment'] = {};
  if (carriers.simulator) deployment.simulator = () => new SimulatorCarrier({ database, log: log.child({ carrier: 'simulator' }) });
  const { smpp, twilio } = carriers;
  if (smpp !== null) {
    const { password, ...settings } = smpp;
    deployment.smpp = () => connectionAdapter(config, log.child({ carrier: 'smpp' }), null, { carrier: 'smpp', ...settings }, password);
  }
  if (twilio !== null) {
    const settings = { carrier: 'twilio' as const, accountSid: twilio.accountSid, callerId: twilio.callerId };
    deployment.twilio = () => connectionAdapter(config, log.child({ carrier: 'twilio' }), null, settings, twilio.authToken);
  }
  if (carriers.defaultCarrier === null) {
    log.warn('no carrier is configured (SIMULATOR, SMPP_URL, TWILIO_ACCOUNT_SID): only accounts’ own connections can send');
  }

  const recheckMs = options.connectionRecheckMs ?? CONNECTION_RECHECK_MS;
  const account = async (settingsId: string): Promise<Carrier | null> => {
    const cipher = await existingSecretsCipher(config.secrets);
    if (cipher === null) {
      // Without a key no connection can be read; one stored with a key since removed says so.
      if ((await updatedAtOf(database, settingsId)) === null) return null;
      throw new SecretsKeyMissingError();
    }
    const load = () => loadCarrierConnection(database.db, cipher, settingsId);
    const connection = await load();
    if (connection === null) return null;
    const connectionLog = log.child({ carrier: connection.settings.carrier, carrierSettingsId: settingsId });
    return new AccountConnection(connection, {
      load,
      updatedAt: () => updatedAtOf(database, settingsId),
      create: (loaded) => connectionAdapter(config, connectionLog, loaded.id, loaded.settings, loaded.secret),
      log: connectionLog,
      recheckMs,
    });
  };

  // With no carrier configured the registry's default names one it cannot open: buying a number says so.
  return createCarrierRegistry(carriers.defaultCarrier ?? 'simulator', { deployment, account });
}

async function updatedAtOf(database: Database, settingsId: string): Promise<Date | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(settingsId)) return null;
  const [row] = await database.db
    .select({ updatedAt: carrierSettings.updatedAt })
    .from(carrierSettings)
    .where(eq(carrierSettings.id, settingsId));
  return row?.updatedAt ?? null;
}

interface ConnectionSource {
  load(): Promise<CarrierConnection | null>;
  updatedAt(): Promise<Date | null>;
  create(connection: CarrierConnection): Carrier;
  log: Pick<Logger, 'warn' | 'info'>;
  recheckMs: number;
}

/**
 * An account's connection that follows changes of its row: at most every `recheckMs` a use looks at the
 * row's updated_at, and a changed row gets a new adapter (started with the same handlers) while the old one
 * finishes what it has in flight and disconnects. A change made by any process reaches every process.
 */
export class AccountConnection implements Carrier {
  readonly name: CarrierName;
  readonly placeVerificationCall?: Carrier['placeVerificationCall'];
  private inner: Carrier;
  private version: number;
  private checkedAt = Date.now();
  private handlers: CarrierHandlers | null = null;
  private refreshing: Promise<void> | null = null;
  private readonly retiring = new Set<Promise<void>>();

  constructor(
    first: CarrierConnection,
    private readonly source: ConnectionSource,
  ) {
    this.inner = source.create(first);
    this.name = this.inner.name;
    this.version = first.updatedAt.getTime();
    // The carrier of a row never changes (the API refuses it), so whether it can call stays as it is.
    if (this.inner.placeVerificationCall) {
      this.placeVerificationCall = async (call) => {
        const current = await this.current();
        if (!current.placeVerificationCall) throw new Error(`the ${current.name} carrier places no calls`);
        return current.placeVerificationCall(call);
      };
    }
  }

  get capabilities(): CarrierCapabilities {
    return this.inner.capabilities;
  }

  async start(handlers: CarrierHandlers): Promise<void> {
    this.handlers = handlers;
    await this.inner.start(handlers);
  }

  async stop(): Promise<void> {
    this.handlers = null;
    await this.refreshing;
    await Promise.all([this.inner.stop(), ...this.retiring]);
  }

  async send(message: OutboundMessage): Promise<SubmitResult> {
    return (await this.current()).send(message);
  }

  async availableNumbers(query: { country: string; limit: number }): Promise<AvailableNumber[]> {
    return (await this.current()).availableNumbers(query);
  }

  async buyNumber(number: string): Promise<{ carrierNumberId: string }> {
    return (await this.current()).buyNumber(number);
  }

  private async current(): Promise<Carrier> {
    if (Date.now() - this.checkedAt >= this.source.recheckMs) {
      this.refreshing ??= this.refresh().finally(() => {
        this.refreshing = null;
      });
      await this.refreshing;
    }
    return this.inner;
  }

  private async refresh(): Promise<void> {
    this.checkedAt = Date.now();
    try {
      const updatedAt = await this.source.updatedAt();
      // Gone: no number uses it any more (the API refuses removing one in use); the adapter stays until stop.
      if (updatedAt === null || updatedAt.getTime() === this.version) return;
      const connection = await this.source.load();
      if (connection === null) return;
      const next = this.source.create(connection);
      if (this.handlers !== null) await next.start(this.handlers);
      const previous = this.inner;
      this.inner = next;
      this.version = connection.updatedAt.getTime();
      this.source.log.info('carrier connection changed; using its new settings');
      const retired = previous.stop().catch((error: unknown) => {
        this.source.log.warn({ err: error }, 'the previous adapter of a changed carrier connection did not stop cleanly');
      });
      this.retiring.add(retired);
      void retired.finally(() => this.retiring.delete(retired));
    } catch (error) {
      // A new bind refused or the key changed: keep the adapter that works, look again at the next recheck.
      this.source.log.warn({ err: error }, 'a changed carrier connection could not be opened; keeping the previous settings');
    }
  }
}
