import { describe, expect, it } from 'vitest';
import { addressAllowed, allowedHostsFrom, hostNameAllowed, invalidAllowedHostEntries } from './allowedHosts.js';

describe('allowed hosts', () => {
  it('takes host names, *. names, addresses and CIDR blocks', () => {
    const allowed = allowedHostsFrom(['Carrier.Corp.Example.', '*.crm.internal', '10.1.0.0/16', '192.168.5.5', '[fd00::1]', 'fd10::/16']);
    expect(hostNameAllowed(allowed, 'carrier.corp.example')).toBe(true);
    expect(hostNameAllowed(allowed, 'CARRIER.corp.example.')).toBe(true);
    expect(hostNameAllowed(allowed, 'other.corp.example')).toBe(false);
    expect(hostNameAllowed(allowed, 'eu.crm.internal')).toBe(true);
    expect(hostNameAllowed(allowed, 'crm.internal')).toBe(false);
    expect(hostNameAllowed(allowed, 'evilcrm.internal')).toBe(false);
    expect(addressAllowed(allowed, '10.1.200.3')).toBe(true);
    expect(addressAllowed(allowed, '10.2.0.1')).toBe(false);
    expect(addressAllowed(allowed, '192.168.5.5')).toBe(true);
    expect(addressAllowed(allowed, '192.168.5.6')).toBe(false);
    expect(addressAllowed(allowed, 'fd00::1')).toBe(true);
    expect(addressAllowed(allowed, 'fd10:1::1')).toBe(true);
  });

  it('names the entries it cannot read', () => {
    expect(invalidAllowedHostEntries(['ok.example', '10.0.0.0/33', 'fd00::/129', 'http://x.example', 'a b', '10.0.0.0/x', '127.1', '*', ''])).toEqual([
      '10.0.0.0/33',
      'fd00::/129',
      'http://x.example',
      'a b',
      '10.0.0.0/x',
      '127.1',
      '*',
      '',
    ]);
    expect(() => allowedHostsFrom(['http://x.example'])).toThrow(/http:\/\/x\.example/);
  });
});
