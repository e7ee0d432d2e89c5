import { describe, expect, it, vi } from 'vitest';
import { pageViewAction, performPageViewAction } from './pageViews';

const at = new Date('2030-01-02T03:04:05.000Z');

describe('pageViewAction', () => {
  it('does nothing when the sink is off or unknown yet', () => {
    expect(pageViewAction({ sink: 'off', url: null }, '/contacts', at)).toEqual({ kind: 'none' });
    expect(pageViewAction(undefined, '/contacts', at)).toEqual({ kind: 'none' });
  });

  it('writes one structured line for the console sink', () => {
    expect(pageViewAction({ sink: 'console', url: null }, '/contacts', at)).toEqual({
      kind: 'console',
      line: '{"event":"pageView","path":"/contacts","at":"2030-01-02T03:04:05.000Z"}',
    });
  });

  it('sends path and time to the beacon url', () => {
    expect(pageViewAction({ sink: 'beacon', url: 'https://stats.example/v' }, '/campaigns', at)).toEqual({
      kind: 'beacon',
      url: 'https://stats.example/v',
      body: '{"path":"/campaigns","at":"2030-01-02T03:04:05.000Z"}',
    });
  });

  it('does nothing for a beacon without a url', () => {
    expect(pageViewAction({ sink: 'beacon', url: null }, '/', at)).toEqual({ kind: 'none' });
    expect(pageViewAction({ sink: 'beacon', url: '' }, '/', at)).toEqual({ kind: 'none' });
  });
});

describe('performPageViewAction', () => {
  it('logs console lines and sends beacons as JSON', async () => {
    const info = vi.fn<(line: string) => void>();
    const sendBeacon = vi.fn<(url: string, data: Blob) => boolean>(() => true);
    performPageViewAction({ kind: 'none' }, { info, sendBeacon });
    expect(info).not.toHaveBeenCalled();
    expect(sendBeacon).not.toHaveBeenCalled();

    performPageViewAction({ kind: 'console', line: 'x' }, { info, sendBeacon });
    expect(info).toHaveBeenCalledWith('x');

    performPageViewAction({ kind: 'beacon', url: '/pv', body: '{"path":"/"}' }, { info, sendBeacon });
    const [url, blob] = sendBeacon.mock.calls[0] ?? [];
    expect(url).toBe('/pv');
    expect(blob?.type).toBe('application/json');
    expect(await blob?.text()).toBe('{"path":"/"}');
  });

  it('skips the beacon where the browser has none', () => {
    expect(() => {
      performPageViewAction({ kind: 'beacon', url: '/pv', body: '{}' }, { info: () => undefined, sendBeacon: undefined });
    }).not.toThrow();
  });
});
