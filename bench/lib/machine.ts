import os from 'node:os';

export interface Machine {
  readonly os: string;
  readonly cpus: { readonly model: string; readonly count: number };
  readonly totalMemoryMiB: number;
  readonly node: string;
  /** 1, 5 and 15 minute load averages when the run started: other work on the machine skews the figures. */
  readonly loadAverage: readonly number[];
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: { model: cpus[0]?.model.trim() ?? 'unknown', count: cpus.length },
    totalMemoryMiB: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}
