import { randomBytes } from 'node:crypto';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { watchCpu } from '../lib/cpuWatch.js';
import { INBOUND_INTERVAL_MS, INBOX_TARGET_P99_MS, percentiles, sleep, twilioEnv, type Sample } from '../lib/inboundProbe.js';
import { ratio } from '../lib/load.js';
import { accessToken, benchStorage, startParley, type Storage } from '../lib/parley.js';
import { startProbeProcess, type ProbeProcess } from '../lib/probeProcess.js';
import { perUnit, watchTableWrites } from '../lib/tableWrites.js';
import { WebhookReceiver } from '../lib/webhookReceiver.js';
import { bareSending } from './webhooksBaseline.js';
import { webhookFigures } from './webhooksFigures.js';
import { CAMPAIGN_TAG, modules, RATE_PER_NUMBER, setUp, WARM_UP_TAG, type Fixture } from './webhooksSetup.js';

/*
 * Webhooks (DESIGN.md, "Performance targets"; docs/notifications.md): a campaign's 10,000 delivered statuses
 * (message-status events, filtered to `delivered`) to 10 webhook endpoints of the account on loopback, served
 * by a receiver in this process (lib/webhookReceiver.ts: each request's signature verified, a sample of them with
 * the Standard Webhooks library too, counted per endpoint, duplicates by webhook-id): 8 healthy, one slow (answers after 1 s), one
 * failing (500). The campaign is created and executed through the API, so the statuses come the product's
 * own way: simulator receipts, the outbox, the notifications fan-out, the webhook sender. Figures: seconds
 * from the last event written to the last delivery at a healthy endpoint (target: at most 10 s), counts and
 * duplicates per endpoint, the slow endpoint's progress, the failing endpoint's tries against the retry
 * schedule, CPU per delivery of each process, and the inbox probe's p99 (lib/inboundProbe.ts) while this
 * runs against the same probe on the idle server before it (baseline, same run).
 */

const CAMPAIGN = Number(process.env.BENCH_WEBHOOKS_EVENTS ?? '10000');
const WARM_UP = 40;
const HEALTHY = 8;
const SLOW_MS = 1000;
const TARGET_SECONDS = 10;
const BASELINE_SAMPLES = 100;
/** How long after the healthy endpoints are done the run waits for the failing one's second tries (5 s on). */
const RETRY_WAIT_MS = 30_000;
/** The sender's requests in flight per endpoint (WebhookSender's default), which the bare sender keeps too. */
const PER_ENDPOINT = 8;
const WORKER_NICE = process.env.BENCH_WORKER_NICE ?? '10';
const TEMPLATE = 'Hi {{{firstName}}}, your order has shipped and arrives tomorrow. Reply STOP to opt out.';

const healthyPaths = Array.from({ length: HEALTHY }, (_, i) => `/hooks/healthy-${String(i + 1)}`);
const SLOW = '/hooks/slow';
const FAILING = '/hooks/failing';

type Post = (path: string, body: unknown, expected: number) => Promise<Record<string, unknown>>;

function api(url: string, token: string, f: Fixture): Post {
  return async (path, body, expected) => {
    const response = await fetch(`${url}/v1/accounts/${f.accountId}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`POST ${path} answered ${String(response.status)}: ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: Record<string, unknown> }).data;
  };
}

/** The receiver's ten endpoints, each a webhook notification of the account wanting delivered statuses. */
async function endpoints(post: Post, receiver: WebhookReceiver): Promise<Map<string, string>> {
  for (const path of healthyPaths) receiver.endpoint(path, { status: 200, delayMs: 0 });
  receiver.endpoint(SLOW, { status: 200, delayMs: SLOW_MS });
  receiver.endpoint(FAILING, { status: 500, delayMs: 0 });
  const ids = new Map<string, string>();
  for (const path of [...healthyPaths, SLOW, FAILING]) {
    const saved = await post('/notifications', { type: 'webhook', destination: `${receiver.base}${path}`, eventTypes: ['message-status'], filters: { statuses: ['delivered'], direction: 'outgoing' } }, 201);
    if (typeof saved.secret !== 'string' || typeof saved.id !== 'string') throw new Error('the new webhook has no secret');
    receiver.secret(path, saved.secret);
    ids.set(path, saved.id);
  }
  return ids;
}

/** Creates and executes a Manual campaign to the contacts with `tag`; answers the execution's id. */
async function runCampaign(post: Post, f: Fixture, name: string, tag: string, recipients: number): Promise<string> {
  const campaign = await post('/campaigns', { name, messagingType: 'transactional', phoneNumberFilter: { group: f.groupId }, trigger: { code: 'M' }, filters: { tags: [tag] }, template: TEMPLATE }, 201);
  if (typeof campaign.id !== 'string') throw new Error('the new campaign has no id');
  const execution = await post(`/campaigns/${campaign.id}/execute`, {}, 202);
  if (typeof execution.id !== 'string' || execution.recipients !== recipients) throw new Error(`the execution has ${String(execution.recipients)} recipients, not ${String(recipients)}`);
  return execution.id;
}

/** Probes the inbox until `done` says so, failing after `limitMs`, logging progress every 5 s. */
async function probeUntil(probes: ProbeProcess, done: () => boolean, what: () => string, limitMs: number, context: BenchContext): Promise<Sample[]> {
  const started = Date.now();
  let lastLog = started;
  return probes.probeUntil(
    () => {
      // Ctrl-C stops the servers: the probes stop with them.
      context.scope.signal.throwIfAborted();
      if (Date.now() - lastLog > 5000) {
        lastLog = Date.now();
        context.log(`  ${String(Math.round((lastLog - started) / 1000))} s: ${what()}`);
      }
      if (Date.now() - started > limitMs) throw new Error(`gave up after ${String(limitMs / 1000)} s: ${what()}`);
      return done();
    },
    20,
  );
}

interface Running {
  url: string;
  post: Post;
  probes: ProbeProcess;
  ids: Map<string, string>;
  pids: Record<string, number>;
  processes: string;
  stop(): Promise<void>;
}

async function start(where: Storage, f: Fixture, receiver: WebhookReceiver, context: BenchContext): Promise<Running> {
  const parley = await startParley(
    where,
    { ...(await twilioEnv(context)), WORKER_NICE, FETCH_ALLOWED_HOSTS: '127.0.0.1', SECRETS_KEY: randomBytes(32).toString('base64') },
    context,
  );
  const token = await accessToken(parley.url, f);
  const post = api(parley.url, token, f);
  // In a process of its own: this one's receiver verifies every webhook request, and a probe queued behind
  // that work would time this process's backlog, not the server's (docs/notifications.md, "What it reaches").
  const probes = await startProbeProcess({ url: parley.url, token, accountId: f.accountId, twilioNumber: f.twilioNumber, from: f.inboundNumbers }, context);
  const [web, worker] = parley.pids;
  return {
    url: parley.url,
    post,
    probes,
    ids: await endpoints(post, receiver),
    pids: worker === undefined ? { server: web ?? 0 } : { web: web ?? 0, worker },
    processes: parley.processes,
    stop: () => parley.stop(),
  };
}

const allHealthyHave = (receiver: WebhookReceiver, jobId: string, n: number): boolean => healthyPaths.every((p) => receiver.events(p, jobId) >= n);

export const webhooksBenchmark: Benchmark = {
  description: `A campaign's ${CAMPAIGN.toLocaleString('en')} delivered statuses to 10 webhook endpoints (8 healthy, one slow, one failing), with the inbox probe beside the same probe on the idle server`,
  async run(context) {
    const m = await modules();
    const where = await benchStorage(context.database, 'webhooks', context);
    context.log(`set-up on ${context.database.kind}: an account, ${String(CAMPAIGN + WARM_UP)} campaign contacts`);
    const f = await setUp(m, where, CAMPAIGN, WARM_UP);
    const receiver = new WebhookReceiver();
    await receiver.start(context);
    const run = await start(where, f, receiver, context);
    const { probes } = run;

    // Warm-up, not measured: routes, the campaign sender, the fan-out and the sender compiled and connected.
    await probes.probeFor(20);
    context.log(`warm-up: a ${String(WARM_UP)}-contact campaign to every endpoint`);
    const warmUp = await runCampaign(run.post, f, 'Warm-up', WARM_UP_TAG, WARM_UP);
    const failedTwice = (jobId: string): number => [...receiver.tries(FAILING).values()].filter((t) => t.jobId === jobId && t.at.length >= 2).length;
    await probeUntil(
      probes,
      () => allHealthyHave(receiver, warmUp, WARM_UP) && receiver.events(SLOW, warmUp) >= WARM_UP && failedTwice(warmUp) >= WARM_UP,
      () => `healthy ${String(receiver.events(healthyPaths[0] ?? '', warmUp))}, slow ${String(receiver.events(SLOW, warmUp))}, failing twice ${String(failedTwice(warmUp))}`,
      120_000,
      context,
    );
    await sleep(1000);

    context.log(`baseline: ${String(BASELINE_SAMPLES)} inbound messages to the idle server`);
    const baselineSamples = await probes.probeFor(BASELINE_SAMPLES);

    context.log(`measured: a ${String(CAMPAIGN)}-contact campaign's statuses to the endpoints while inbound messages arrive`);
    // The benchmark's own process too: the receiver verifies every request, and a starved receiver answers late.
    const cpu = await watchCpu({ ...run.pids, bench: process.pid, probe: probes.pid }, where);
    const writes = await watchTableWrites(where);
    const requestsBefore = receiver.total;
    const executedAt = Date.now();
    // Set by the execution's answer, read by the probes' loop.
    const execution: { jobId: string | null; refused: Error | null } = { jobId: null, refused: null };
    runCampaign(run.post, f, 'Shipping notices', CAMPAIGN_TAG, CAMPAIGN).then(
      (id) => (execution.jobId = id),
      (error: unknown) => (execution.refused = error instanceof Error ? error : new Error(String(error))),
    );
    const progress = (jobId: string): string =>
      `healthy ${healthyPaths.map((p) => String(receiver.events(p, jobId))).join('/')}, slow ${String(receiver.events(SLOW, jobId))}, failing ${String(receiver.events(FAILING, jobId))}`;
    const samples = await probeUntil(
      probes,
      () => {
        if (execution.refused !== null) throw execution.refused;
        return execution.jobId !== null && allHealthyHave(receiver, execution.jobId, CAMPAIGN);
      },
      () => (execution.jobId === null ? 'executing' : progress(execution.jobId)),
      900_000,
      context,
    );
    const healthyDoneAt = Date.now();
    const used = await cpu.used();
    const requests = receiver.total - requestsBefore;
    const measuredJob = execution.jobId ?? '';
    const slowAtHealthyDone = receiver.counts(SLOW, measuredJob);
    context.log(`healthy endpoints done after ${String((healthyDoneAt - executedAt) / 1000)} s; waiting up to ${String(RETRY_WAIT_MS / 1000)} s for the failing endpoint's second tries`);
    const waitUntil = Date.now() + RETRY_WAIT_MS;
    while (Date.now() < waitUntil && failedTwice(measuredJob) < CAMPAIGN) await sleep(200);
    const endedAt = Date.now();
    await run.stop();
    // After the stop: the backends have reported every row they wrote.
    const written = await writes.written();

    const sampleBody = receiver.lastBody(healthyPaths[0] ?? '');
    if (sampleBody === null) throw new Error('no verified body to send again');
    context.log(`baseline: the same body to ${String(HEALTHY)} endpoints ${String(CAMPAIGN)} times each from a bare sender`);
    const bare = await bareSending(receiver, { body: sampleBody, jobId: measuredJob, endpoints: HEALTHY, count: CAMPAIGN, perEndpoint: PER_ENDPOINT }, context);
    const figures = await webhookFigures({ m, where, f, receiver, jobId: measuredJob, ids: run.ids, healthyPaths, slow: SLOW, failing: FAILING, executedAt, healthyDoneAt, endedAt, slowAtHealthyDone });
    const cpuPerDelivery = Object.fromEntries(
      Object.entries(used).map(([name, ms]) => [name, ms === null ? null : { microsPerRequest: Math.round((ms * 1000) / Math.max(1, requests)), percentOfOneCore: Math.round((ms / (healthyDoneAt - executedAt)) * 100) }]),
    );
    const inbox = { ...percentiles(samples.map((s) => s.eventMs)), webhookMs: percentiles(samples.map((s) => s.webhookMs)) };
    const baseline = { ...percentiles(baselineSamples.map((s) => s.eventMs)), webhookMs: percentiles(baselineSamples.map((s) => s.webhookMs)) };
    const seconds = figures.lastEventToLastHealthySeconds;
    context.log(`measured: last event to last healthy delivery ${String(seconds)} s; inbox p99 ${String(inbox.p99)} ms (idle ${String(baseline.p99)} ms)`);
    return {
      parameters: {
        events: CAMPAIGN,
        endpoints: `${String(HEALTHY)} healthy, 1 slow (${String(SLOW_MS)} ms), 1 failing (500), one receiver origin`,
        campaign: 'created and executed through the API; webhooks filtered to delivered statuses',
        processes: run.processes,
        workerNice: run.processes === 'one' ? 'none (one process)' : Number(WORKER_NICE),
        ratePerNumber: RATE_PER_NUMBER,
        inboundIntervalMs: INBOUND_INTERVAL_MS,
        targetSeconds: TARGET_SECONDS,
        inboxTargetP99Ms: INBOX_TARGET_P99_MS,
      },
      measured: {
        ...figures,
        requestsWhileMeasured: requests,
        rowsWrittenPerDelivery: written === null ? null : perUnit(written, CAMPAIGN * (HEALTHY + 2)),
        cpuPerRequest: cpuPerDelivery,
        inbox,
        unverified: receiver.unverified(),
        libraryChecked: receiver.libraryChecked(),
        meetsTarget: CAMPAIGN >= 10_000 && seconds !== null && seconds <= TARGET_SECONDS && figures.healthyComplete && figures.duplicates === 0 && inbox.p99 < INBOX_TARGET_P99_MS,
      },
      baseline: { inbox: baseline, bareSending: bare },
      ratios: {
        inboxP50: ratio(inbox.p50, baseline.p50),
        inboxP99: ratio(inbox.p99, baseline.p99),
        healthyDeliveriesPerSecond: figures.healthyDeliveriesPerSecond === null ? null : ratio(figures.healthyDeliveriesPerSecond, bare.perSecond),
      },
    };
  },
};
