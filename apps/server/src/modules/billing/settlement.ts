import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client.js';
import type { Mailer } from '../../platform/mail/index.js';
import { notifyAutoTopupFailed, runAutoTopups, type AutoTopupFailure } from './autoTopup.js';
import type { AppliedEvent } from './payments/applyEvent.js';
import type { PaymentProvider } from './payments/provider.js';
import { deliverSandboxEvents } from './payments/sandbox/delivery.js';

export interface SettlementDeps {
  db: Db;
  mailer: Mailer;
  log: Logger;
}

/** What follows applied events: administrators told of an auto top-up a declined card stopped. */
export async function followUpEvents(deps: SettlementDeps, results: readonly AppliedEvent[]): Promise<void> {
  await tellFailures(deps, results.flatMap((r) => (r.autoTopupFailed === null ? [] : [r.autoTopupFailed])));
}

async function tellFailures(deps: SettlementDeps, failures: readonly AutoTopupFailure[]): Promise<void> {
  for (const failure of failures) {
    try {
      await notifyAutoTopupFailed(deps.db, deps.mailer, failure);
    } catch (error) {
      deps.log.error({ err: error, accountId: failure.accountId }, 'could not tell the administrators of a failed auto top-up');
    }
  }
}

/**
 * One round of the billing background work: scheduled auto top-ups asked of the provider, then (sandbox)
 * its pending events delivered, and the follow-ups of both.
 */
export async function settleBilling(deps: SettlementDeps, provider: PaymentProvider): Promise<void> {
  await tellFailures(deps, await runAutoTopups(deps.db, provider));
  if (provider.name === 'sandbox') await followUpEvents(deps, await deliverSandboxEvents(deps.db));
}

/**
 * A trigger that runs one settlement at a time and, when asked during one, once more after it: the sandbox
 * delivers its events moments after a call, as a provider's webhook comes.
 */
export function settlementTrigger(run: () => Promise<void>, log: Logger): () => void {
  let running = false;
  let again = false;
  const askedAgain = (): boolean => again;
  const loop = async (): Promise<void> => {
    running = true;
    try {
      do {
        again = false;
        await run();
      } while (askedAgain());
    } catch (error) {
      log.error({ err: error }, 'billing settlement failed; the next round tries again');
    } finally {
      running = false;
    }
  };
  return () => {
    if (running) {
      again = true;
      return;
    }
    setImmediate(() => void loop());
  };
}
