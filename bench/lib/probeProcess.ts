import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { BenchContext } from './benchmark.js';
import type { Sample } from './inboundProbe.js';
import { benchDist } from './paths.js';
import type { ProbeCommand, ProbeOrder, ProbeReply } from './probeChild.js';

/** The inbox probe run by a process of its own (lib/probeChild.ts), one run at a time. */
export interface ProbeProcess {
  /** Probes `count` times, one every INBOUND_INTERVAL_MS. */
  probeFor(count: number): Promise<Sample[]>;
  /**
   * Probes until `done` says so and at least `minimum` went; `done` is asked every 50 ms in this process
   * (it may throw to end the run).
   */
  probeUntil(done: () => boolean, minimum: number): Promise<Sample[]>;
  /** The probing process's CPU is its own: its pid, for the benchmark's CPU figures. */
  readonly pid: number;
}

function replies(child: ChildProcess): () => Promise<ProbeReply> {
  const queued: ProbeReply[] = [];
  const waiting: ((reply: ProbeReply) => void)[] = [];
  child.on('message', (message: ProbeReply) => {
    const taker = waiting.shift();
    if (taker === undefined) queued.push(message);
    else taker(message);
  });
  child.once('exit', (code) => {
    for (const taker of waiting.splice(0)) taker({ kind: 'failed', message: `the probe process exited with ${String(code)}` });
  });
  return () => {
    const first = queued.shift();
    return first === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(first);
  };
}

async function samplesOf(reply: Promise<ProbeReply>): Promise<Sample[]> {
  const answer = await reply;
  switch (answer.kind) {
    case 'samples':
      return answer.samples;
    case 'failed':
      throw new Error(`the inbox probe failed: ${answer.message}`);
    case 'ready':
      throw new Error('the inbox probe answered out of turn');
  }
}

export async function startProbeProcess(order: ProbeOrder, context: BenchContext): Promise<ProbeProcess> {
  const child = fork(path.join(benchDist, 'lib', 'probeChild.js'), [], { env: { ...process.env, PROBE_ORDER: JSON.stringify(order) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  context.scope.defer(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return Promise.resolve();
  });
  const next = replies(child);
  const ready = await next();
  if (ready.kind !== 'ready') throw new Error(`the inbox probe did not start: ${ready.kind === 'failed' ? ready.message : 'it answered out of turn'}`);
  const send = (command: ProbeCommand): void => {
    child.send(command);
  };
  return {
    pid: child.pid ?? 0,
    probeFor(count) {
      send({ kind: 'count', count });
      return samplesOf(next());
    },
    async probeUntil(done, minimum) {
      const answered = next();
      // Taken here too, should the run fail before `done`: the failure is thrown below, not left unhandled.
      answered.catch(() => undefined);
      send({ kind: 'start', minimum });
      try {
        while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        send({ kind: 'stop' });
      }
      return samplesOf(answered);
    },
  };
}
