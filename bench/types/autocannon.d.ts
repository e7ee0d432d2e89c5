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
      /** Called with each connection's client once, before it connects: its own requests, headers, listeners. */
      setupClient?: (client: Client) => void;
    }

    /** One request of a connection's cycle; setupRequest builds it anew each time it comes round. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Answers the request to send (a copy of this one, changed), or null to skip it. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | null;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }

    /** A connection: it sends its requests in turn, one at a time (no pipelining). */
    interface Client {
      setRequests(requests: Request[]): void;
      /** Each answer: its status, bytes and the time from sending the request to its last byte (ms). */
      on(event: 'response', listener: (status: number, bytes: number, durationMs: number) => void): this;
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
