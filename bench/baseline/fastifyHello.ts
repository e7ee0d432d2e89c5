// The smallest Fastify server answering what Parley's /healthz answers: the floor Parley is compared with.
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? '0');
const host = process.env.HOST ?? '127.0.0.1';

const app = Fastify({ logger: false });
app.get('/healthz', () => ({ status: 'ok' }));

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
