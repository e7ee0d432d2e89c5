import { describe, expect, it } from 'vitest';
import { isServerPath } from './serverPaths';

describe('navigation fallback denylist', () => {
  it.each([
    '/v1',
    '/v1/config',
    '/v1?x=1',
    '/docs',
    '/docs/json',
    '/healthz',
    '/readyz',
    '/oidc/auth?client_id=web',
    '/socket.io/?EIO=4',
    '/dev/mailbox',
  ])('lets %s reach the server', (path) => {
    expect(isServerPath(path)).toBe(true);
  });

  it.each(['/', '/contacts', '/v10', '/documents', '/developers', '/devices', '/lists/v1', '/templates/sms'])(
    'serves the app for %s',
    (path) => {
      expect(isServerPath(path)).toBe(false);
    },
  );
});
