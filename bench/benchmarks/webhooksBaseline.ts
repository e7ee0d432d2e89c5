import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { BenchContext } from '../lib/benchmark.js';
import { benchDist } from '../lib/paths.js';
import type { WebhookReceiver } from '../lib/webhookReceiver.js';

/** What the bare sender did: the floor of the measured run's deliveries on this machine. */
export interface BareSending {
  requests: number;
  /** From the first request sent to the last event received, as the bare process measured its sending. */
  seconds: number;
  perSecond: number;
  cpuMicrosPerRequest: { sender: number; receiver: number };
}

/**
 * The webhooks benchmark's baseline, in the same run after Parley has stopped: the measured run's body, signed
 * and sent as many times to as many healthy endpoints of the same receiver by a bare Node process
 * (baseline/webhookBlast.ts: no database, no outbox, no campaign), with the same keep-alive and in-flight limit.
 */
export async function bareSending(receiver: WebhookReceiver, options: { body: string; jobId: string; endpoints: number; count: number; perEndpoint: number }, context: BenchContext): Promise<BareSending> {
  const bareJob = `bare-${randomUUID()}`;
  const endpoints = Array.from({ length: options.endpoints }, (_, i) => {
    const path_ = `/hooks/bare-${String(i + 1)}`;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    receiver.endpoint(path_, { status: 200, delayMs: 0 });
    receiver.secret(path_, secret);
    return { path: path_, url: `${receiver.base}${path_}`, secret };
  });
  const order = { endpoints: endpoints.map(({ url, secret }) => ({ url, secret })), body: options.body.replaceAll(options.jobId, bareJob), count: options.count, perEndpoint: options.perEndpoint };
  const before = process.cpuUsage();
  const child = spawn(process.execPath, [path.join(benchDist, 'baseline', 'webhookBlast.js')], { env: { ...process.env, BLAST_ORDER: JSON.stringify(order) }, stdio: ['ignore', 'pipe', 'inherit'] });
  context.scope.defer(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return Promise.resolve();
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the bare sender exited with ${String(code)}`);
  const used = process.cpuUsage(before);
  const answer = JSON.parse(output) as { seconds: number; cpuMs: number };
  const received = endpoints.reduce((sum, e) => sum + receiver.events(e.path, bareJob), 0);
  const requests = options.endpoints * options.count;
  if (received !== requests) throw new Error(`the receiver verified ${String(received)} of the bare sender's ${String(requests)} requests`);
  return {
    requests,
    seconds: Math.round(answer.seconds * 1000) / 1000,
    perSecond: Math.round(requests / answer.seconds),
    cpuMicrosPerRequest: { sender: Math.round((answer.cpuMs * 1000) / requests), receiver: Math.round((used.user + used.system) / requests) },
  };
}
