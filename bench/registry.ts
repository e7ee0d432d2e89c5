import type { Benchmark } from './lib/benchmark.js';
import { apiBenchmark } from './benchmarks/api.js';
import { campaignBenchmark } from './benchmarks/campaign.js';
import { fanoutBenchmark } from './benchmarks/fanout.js';
import { healthz } from './benchmarks/healthz.js';
import { importBenchmark } from './benchmarks/import.js';
import { inboundBenchmark } from './benchmarks/inbound.js';
import { redirectBenchmark } from './benchmarks/redirect.js';
import { segmentsBenchmark } from './benchmarks/segments.js';
import { webhooksBenchmark } from './benchmarks/webhooks.js';

/** Every benchmark `npm run bench -- <name>` knows, by name. */
export const benchmarks: Readonly<Record<string, Benchmark>> = {
  healthz,
  import: importBenchmark,
  segments: segmentsBenchmark,
  fanout: fanoutBenchmark,
  inbound: inboundBenchmark,
  campaign: campaignBenchmark,
  api: apiBenchmark,
  redirect: redirectBenchmark,
  webhooks: webhooksBenchmark,
};
