import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { DrawLimit, SCREENSHOTS_BUSY_MESSAGE } from './drawLimit.js';

describe('the screenshot drawing line', () => {
  it('draws two at once, lets the next wait its turn, and turns away those beyond the line', async () => {
    const limit = new DrawLimit(2, 1);
    const releases: (() => void)[] = [];
    let drawing = 0;
    let most = 0;
    const draw = (name: string) =>
      limit.run(async () => {
        drawing += 1;
        most = Math.max(most, drawing);
        await new Promise<void>((resolve) => releases.push(resolve));
        drawing -= 1;
        return name;
      });
    const first = draw('first');
    const second = draw('second');
    const third = draw('third');
    await expect(draw('fourth')).rejects.toMatchObject({ statusCode: 429, message: SCREENSHOTS_BUSY_MESSAGE });
    await Promise.resolve();
    expect(releases).toHaveLength(2);
    releases.shift()?.();
    await expect(first).resolves.toBe('first');
    // The waiting one took the place the first gave up.
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(2);
    for (const release of releases.splice(0)) release();
    await expect(Promise.all([second, third])).resolves.toEqual(['second', 'third']);
    expect(most).toBe(2);
  });

  it('gives the place back when a drawing fails', async () => {
    const limit = new DrawLimit(1, 0);
    await expect(limit.run(() => Promise.reject(new AppError(400, 'bad_request', 'bad picture')))).rejects.toThrow('bad picture');
    await expect(limit.run(() => Promise.resolve('drawn'))).resolves.toBe('drawn');
  });
});
