import { describe, expect, it } from 'vitest';
import { allowedHostsFrom } from '../../platform/net/allowedHosts.js';
import { webhookDestinationRefusal } from './destinationPolicy.js';

describe('where a webhook may go, judged when it is saved', () => {
  const none = allowedHostsFrom([]);

  it('takes public addresses and names (names are judged again at delivery)', () => {
    expect(webhookDestinationRefusal(none, 'https://hooks.example.com/parley')).toBeNull();
    expect(webhookDestinationRefusal(none, 'http://93.184.216.34/in')).toBeNull();
    expect(webhookDestinationRefusal(none, 'https://[2606:4700::1111]/in')).toBeNull();
  });

  it('refuses loopback, private, link-local and localhost destinations', () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fd00::5]/hook',
      'http://localhost/hook',
      'http://api.localhost/hook',
      'http://0.0.0.0/hook',
    ]) {
      expect(webhookDestinationRefusal(none, url), url).toContain('not a public address');
    }
    expect(webhookDestinationRefusal(none, 'not a url')).toBe('Valid URL with http or https prefix required');
  });

  it('lets FETCH_ALLOWED_HOSTS name a private destination, by name or block, and nothing beyond it', () => {
    const allowed = allowedHostsFrom(['10.1.0.0/16', 'localhost']);
    expect(webhookDestinationRefusal(allowed, 'http://10.1.2.3/hook')).toBeNull();
    expect(webhookDestinationRefusal(allowed, 'http://localhost:9000/hook')).toBeNull();
    expect(webhookDestinationRefusal(allowed, 'http://10.2.0.1/hook')).toContain('not a public address');
    expect(webhookDestinationRefusal(allowed, 'http://127.0.0.1/hook')).toContain('not a public address');
  });
});
