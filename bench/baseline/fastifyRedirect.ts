// The smallest Fastify server answering what Parley's short links answer: a 302 from a Map of codes.
import Fastify from 'fastify';
import { benchCode } from '../lib/codes.js';

const port = Number(process.env.PORT ?? '0');
const host = process.env.HOST ?? '127.0.0.1';
const count = Number(process.env.BENCH_CODES ?? '10000');

const targets = new Map<string, string>();
for (let i = 0; i < count; i += 1) targets.set(benchCode(i), `https://shop.example.test/item/${String(i)}`);

const app = Fastify({ logger: false });
app.get('/healthz', () => ({ status: 'ok' }));
app.get<{ Params: { code: string } }>('/r/:code', (request, reply) => {
  const target = targets.get(request.params.code);
  if (target === undefined) return reply.code(404).send('not found');
  return reply.code(302).header('cache-control', 'private, no-store').header('location', target).send();
});

await app.listen({ port, host });
process.stdout.write(`${JSON.stringify({ msg: 'baseline is ready', port })}\n`);

const stop = (): void => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
