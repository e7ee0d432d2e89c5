// The package ships no types; this covers the part of its programmatic API the benchmarks use.
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds a request may take before it counts as an error. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      expectBody?: string;
      title?: string;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p2_5: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      url: string;
      connections: number;
      pipelining: number;
      /** Seconds. */
      duration: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds; 2xx answers only. */
      latency: Histogram;
      /** Requests completed per sample second. */
      requests: Histogram & { sent: number };
      /** Bytes per sample second. */
      throughput: Histogram;
    }

    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export = autocannon;
}
