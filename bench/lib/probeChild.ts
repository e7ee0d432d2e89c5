// The inbox probe in a process of its own (lib/probeProcess.ts starts it): its websocket client and timers are
// not queued behind the work of the benchmark's process (the webhooks benchmark's receiver verifies tens of
// thousands of requests), so a sample is the server's latency, not the probing process's backlog.
import { io } from 'socket.io-client';
import { inboundProbe, probeWhile, type Sample } from './inboundProbe.js';

export interface ProbeOrder {
  url: string;
  token: string;
  accountId: string;
  twilioNumber: string;
  /** The customers' numbers the probes come from, in turn. */
  from: string[];
}

/** From the parent: probe `count` times, or probe from `start` until `stop` (and at least `minimum`). */
export type ProbeCommand = { kind: 'count'; count: number } | { kind: 'start'; minimum: number } | { kind: 'stop' };

export type ProbeReply = { kind: 'ready' } | { kind: 'samples'; samples: Sample[] } | { kind: 'failed'; message: string };

const order = JSON.parse(process.env.PROBE_ORDER ?? 'null') as ProbeOrder | null;
if (order === null) throw new Error('PROBE_ORDER is not set');
const reply = (message: ProbeReply): void => {
  process.send?.(message);
};

const socket = io(order.url, { path: '/socket.io', transports: ['websocket'], auth: { token: order.token, accountId: order.accountId } });
await new Promise<void>((resolve, reject) => {
  socket.once('ready', () => {
    resolve();
  });
  socket.once('connect_error', reject);
});
const probe = inboundProbe(order.url, order.twilioNumber, socket);
let customer = 0;
const next = (): string => order.from[customer++ % order.from.length] ?? '';

/** Set by a `stop`: the run in progress ends once it has its minimum. */
let stopped = false;

async function run(until: () => boolean, minimum: number): Promise<void> {
  try {
    reply({ kind: 'samples', samples: await probeWhile(probe, next, until, minimum) });
  } catch (error) {
    reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

process.on('message', (command: ProbeCommand) => {
  switch (command.kind) {
    case 'count': {
      let sent = 0;
      void run(() => (sent += 1) > command.count, 0);
      return;
    }
    case 'start':
      stopped = false;
      void run(() => stopped, command.minimum);
      return;
    case 'stop':
      stopped = true;
      return;
  }
});
process.on('disconnect', () => {
  socket.close();
  process.exit(0);
});
reply({ kind: 'ready' });
