// The floor of the webhooks benchmark: the same signed requests, sent by a bare Node process with no database,
// no outbox and no campaign beside it, as Parley's sender sends them (undici's kept-open connections, 8 in
// flight per endpoint, HMAC-SHA256 as Standard Webhooks says). The receiver is the benchmark's own, verifying
// every request.
import crypto from 'node:crypto';
import { Pool } from 'undici';

interface BlastOrder {
  /** One URL and its secret per endpoint. */
  endpoints: { url: string; secret: string }[];
  /** The body each endpoint is sent `count` times (each request a webhook-id of its own). */
  body: string;
  count: number;
  perEndpoint: number;
}

const order = JSON.parse(process.env.BLAST_ORDER ?? 'null') as BlastOrder | null;
if (order === null) throw new Error('BLAST_ORDER is not set');

const keyOf = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

async function post(pool: Pool, path: string, key: Buffer, body: string): Promise<void> {
  const id = `msg_${crypto.randomUUID()}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  const answer = await pool.request({
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature },
    body,
  });
  await answer.body.arrayBuffer();
}

async function blastOne(endpoint: BlastOrder['endpoints'][number], body: string, count: number, perEndpoint: number): Promise<void> {
  const url = new URL(endpoint.url);
  const pool = new Pool(url.origin, { connections: perEndpoint });
  const key = keyOf(endpoint.secret);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      await post(pool, `${url.pathname}${url.search}`, key, body);
    }
  };
  await Promise.all(Array.from({ length: perEndpoint }, lane));
  await pool.close();
}

const { endpoints, body, count, perEndpoint } = order;
const started = performance.now();
const cpu = process.cpuUsage();
await Promise.all(endpoints.map((endpoint) => blastOne(endpoint, body, count, perEndpoint)));
const used = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000, cpuMs: (used.user + used.system) / 1000 })}\n`);
