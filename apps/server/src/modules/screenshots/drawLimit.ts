import { AppError } from '../../platform/errors.js';

/*
 * Drawing a screenshot takes a fifth of a second of CPU or more: a flood of requests waits in a short line or is
 * turned away, rather than piling up in memory and holding every other request back (docs/tools.md).
 */

export const SCREENSHOTS_DRAWN_AT_ONCE = 2;
export const SCREENSHOTS_WAITING = 16;
export const SCREENSHOTS_BUSY_MESSAGE = 'Too many screenshots are being drawn right now. Try again in a moment.';

export class DrawLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly atOnce = SCREENSHOTS_DRAWN_AT_ONCE,
    private readonly maxWaiting = SCREENSHOTS_WAITING,
  ) {}

  /** Runs `work` when a place is free; 429 when the line is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.atOnce) {
      this.running += 1;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw new AppError(429, 'rate_limited', SCREENSHOTS_BUSY_MESSAGE);
      // The place is handed over by the one finishing: `running` stays as it is.
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
      });
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}
