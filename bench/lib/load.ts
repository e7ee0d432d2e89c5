import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** An answer with another body counts as a mismatch. */
  readonly expectBody?: string;
  /** Gives each connection its own requests (autocannon's setupClient); without it every one asks `url`. */
  readonly setupClient?: (client: autocannon.Client) => void;
}

export interface LoadFigures {
  /** Mean of the per-second samples. */
  readonly requestsPerSecond: number;
  readonly requestsCompleted: number;
  /** Whole milliseconds (autocannon's resolution), 2xx answers only. */
  readonly latencyMs: {
    readonly mean: number;
    readonly p50: number;
    readonly p97_5: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly mismatches: number;
  /** Answers by HTTP status. */
  readonly statusCodes: Readonly<Record<string, number>>;
}

/**
 * Closed-loop load: each connection sends its next request when the previous one is answered.
 * An abort ends the load early with the figures so far.
 */
export async function applyLoad(options: LoadOptions, signal: AbortSignal): Promise<LoadFigures> {
  signal.throwIfAborted();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    pipelining: 1,
    ...(options.expectBody === undefined ? {} : { expectBody: options.expectBody }),
    ...(options.setupClient === undefined ? {} : { setupClient: options.setupClient }),
  });
  const stop = (): void => {
    instance.stop();
  };
  signal.addEventListener('abort', stop, { once: true });
  let result;
  try {
    result = await instance;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  signal.throwIfAborted();
  const { latency, requests } = result;
  return {
    requestsPerSecond: requests.mean,
    requestsCompleted: requests.total ?? 0,
    latencyMs: { mean: latency.mean, p50: latency.p50, p97_5: latency.p97_5, p99: latency.p99, max: latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, stat]) => [status, stat.count])),
  };
}

export function ratio(measured: number, baseline: number): number | null {
  return baseline === 0 ? null : Math.round((measured / baseline) * 1000) / 1000;
}
