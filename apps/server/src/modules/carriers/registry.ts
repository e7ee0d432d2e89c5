import type { Carrier, CarrierHandlers, CarrierName } from './carrier.js';

/** What a number row says about where it sends. */
export interface NumberCarrierRef {
  carrier: CarrierName;
  /** Null: the deployment's connection for that carrier (from the environment). */
  carrierSettingsId: string | null;
}

/** The deployment's simulated carrier: where the virtual phones' messages arrive. */
export const DEPLOYMENT_SIMULATOR: NumberCarrierRef = { carrier: 'simulator', carrierSettingsId: null };

/**
 * The engine's handlers, only ever for one connection: what arrives on a connection (a receipt, an incoming
 * message) reaches only the numbers on that connection and their messages, so two SMSCs that number their
 * messages alike never meet, and an account's own connection never touches another account.
 */
export interface EngineHandlers {
  forConnection(ref: NumberCarrierRef): CarrierHandlers;
}

/**
 * The carriers of a deployment: the ones the environment configures (the simulator by default) and the
 * connections accounts configured for themselves (carrier_settings). Adapters are created on first use and
 * kept; every adapter, present and future, is started with the engine's handlers once `start` ran.
 */
export interface CarrierRegistry {
  /** The carrier new numbers are bought from when nothing else is asked for. */
  readonly defaultCarrier: CarrierName;
  /** The carriers the deployment's environment configures. */
  readonly configured: readonly CarrierName[];
  /** The adapter a number sends through. Throws CarrierUnavailableError when it is not configured. */
  forNumber(ref: NumberCarrierRef): Promise<Carrier>;
  /** Starts the adapters' inbound and receipt flow into the handlers (the worker role). */
  start(handlers: EngineHandlers): Promise<void>;
  stop(): Promise<void>;
}

export class CarrierUnavailableError extends Error {
  constructor(readonly ref: NumberCarrierRef) {
    super(
      ref.carrierSettingsId === null
        ? `the ${ref.carrier} carrier is not configured for this deployment`
        : `the ${ref.carrier} connection ${ref.carrierSettingsId} does not exist`,
    );
    this.name = 'CarrierUnavailableError';
  }
}

export interface CarrierFactories {
  /** The deployment's adapters by carrier, created once (from the environment). */
  deployment: Partial<Record<CarrierName, () => Carrier>>;
  /** An account's own connection (carrier_settings row), or null when there is none with that id. */
  account?: (settingsId: string) => Promise<Carrier | null>;
}

/** The registry over adapter factories; app/server.ts gives it the factories the config allows. */
export function createCarrierRegistry(defaultCarrier: CarrierName, factories: CarrierFactories): CarrierRegistry {
  const adapters = new Map<string, Promise<Carrier>>();
  const unstarted = new Map<Carrier, NumberCarrierRef>();
  let handlers: EngineHandlers | null = null;
  let stopped = false;

  async function open(create: () => Promise<Carrier | null>, ref: NumberCarrierRef): Promise<Carrier> {
    const carrier = await create();
    if (carrier === null) throw new CarrierUnavailableError(ref);
    if (handlers !== null) await carrier.start(handlers.forConnection(ref));
    else unstarted.set(carrier, ref);
    return carrier;
  }

  function adapter(ref: NumberCarrierRef): Promise<Carrier> {
    if (stopped) return Promise.reject(new Error('the carrier registry is stopped'));
    const key = ref.carrierSettingsId ?? `deployment:${ref.carrier}`;
    let pending = adapters.get(key);
    if (!pending) {
      const create =
        ref.carrierSettingsId === null
          ? () => Promise.resolve(factories.deployment[ref.carrier]?.() ?? null)
          : () => factories.account?.(ref.carrierSettingsId ?? '') ?? Promise.resolve(null);
      pending = open(create, ref);
      // A failed creation is not kept: the next use tries again (a connection may come back).
      pending.catch(() => adapters.delete(key));
      adapters.set(key, pending);
    }
    return pending;
  }

  return {
    defaultCarrier,
    configured: Object.keys(factories.deployment) as CarrierName[],
    forNumber: adapter,
    async start(given) {
      handlers = given;
      const waiting = [...unstarted];
      unstarted.clear();
      await Promise.all(waiting.map(([carrier, ref]) => carrier.start(given.forConnection(ref))));
      // The deployment's adapters start at once: they receive (SMPP binds, simulator replies) before any send.
      await Promise.all(
        (Object.keys(factories.deployment) as CarrierName[]).map((carrier) => adapter({ carrier, carrierSettingsId: null })),
      );
    },
    async stop() {
      stopped = true;
      const all = [...adapters.values()];
      adapters.clear();
      await Promise.all(all.map(async (pending) => (await pending.catch(() => null))?.stop()));
    },
  };
}
