/*
 * A dispatcher in a process of its own, for the test that kills a worker mid-batch (dispatcher.kill.test.ts):
 * it claims, submits, reports each submit on stdout as a JSON line and then hangs before writing any result,
 * as a process does that dies between the carrier's answer and the database. Not part of the product.
 *
 * Environment: DATABASE_URL (PostgreSQL); CARRIER 'recording' (an SMPP-like carrier: not idempotent) or
 * 'simulator'; BATCH_SIZE (default 50); SUBMIT_CONCURRENCY (default 4).
 */
import { pino } from 'pino';
import type { Carrier, OutboundMessage, SubmitResult } from '../../carriers/carrier.js';
import { SimulatorCarrier } from '../../carriers/simulator/simulatorCarrier.js';
import { openPostgres } from '../../../platform/db/client.js';
import { MessageDispatcher } from '../dispatcher.js';
import { RecordingCarrier, registryOf } from './dispatcherFixtures.js';

const say = (line: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};
const forever = <T>(): Promise<T> => new Promise<T>(() => undefined);

const url = process.env.DATABASE_URL;
if (url === undefined) throw new Error('DATABASE_URL is not set');
const database = openPostgres(url, 4);
const log = pino({ level: 'silent' });

function carrierFor(kind: string | undefined): Carrier {
  if (kind === 'simulator') {
    const simulator = new SimulatorCarrier({ database, log, pollIntervalMs: 3_600_000 });
    const submitMany = simulator.sendMany.bind(simulator);
    // The network takes the whole batch; the process never hears back.
    simulator.sendMany = async (batch: readonly OutboundMessage[]): Promise<SubmitResult[]> => {
      await submitMany(batch);
      for (const message of batch) say({ submitted: message.id });
      return forever();
    };
    return simulator;
  }
  return new RecordingCarrier('smpp', (message) => {
    say({ submitted: message.id });
    return forever();
  });
}

const dispatcher = new MessageDispatcher({
  database,
  carriers: registryOf(carrierFor(process.env.CARRIER)),
  log,
  batchSize: Number(process.env.BATCH_SIZE ?? '50'),
  submitConcurrency: Number(process.env.SUBMIT_CONCURRENCY ?? '4'),
  pollIntervalMs: 20,
});
await dispatcher.start();
say({ ready: true });
