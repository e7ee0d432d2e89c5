import { describe, expect, it } from 'vitest';
import { addressInCidr, ipv6ToBigInt, nonPublicRange } from './ipRanges.js';

describe('public addresses', () => {
  it('names the range of every address that is not public', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
      ['100.127.255.255', 'shared address space (carrier-grade NAT)'],
      ['169.254.169.254', 'link-local'],
      ['192.0.0.8', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['224.0.0.251', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['::127.0.0.1', 'reserved'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['0:0:0:0:0:ffff:a00:1', 'private'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
      ['2002:c0a8:101::1', 'private'],
      ['fc00::1', 'private'],
      ['fd12:3456:789a::1', 'private'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf::1', 'link-local'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['2001::1', 'reserved'],
      ['100::1', 'reserved'],
      ['4000::1', 'reserved'],
      ['example.com', 'not an IP address'],
      ['2130706433', 'not an IP address'],
    ];
    for (const [address, range] of cases) expect(nonPublicRange(address), address).toBe(range);
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(nonPublicRange(address), address).toBeNull();
    }
  });

  it('reads IPv6 in its every form and matches CIDR blocks of one family', () => {
    expect(ipv6ToBigInt('::ffff:127.0.0.1')).toBe(ipv6ToBigInt('0:0:0:0:0:ffff:7f00:0001'));
    expect(ipv6ToBigInt('1::')).toBe(1n << 112n);
    expect(ipv6ToBigInt('1.2.3.4')).toBeNull();
    expect(addressInCidr('10.1.2.3', '10.1.0.0', 16)).toBe(true);
    expect(addressInCidr('10.2.0.1', '10.1.0.0', 16)).toBe(false);
    expect(addressInCidr('10.2.0.1', '0.0.0.0', 0)).toBe(true);
    expect(addressInCidr('fd00::5', 'fd00::', 8)).toBe(true);
    expect(addressInCidr('::ffff:10.1.2.3', '10.1.0.0', 16)).toBe(false);
  });
});
