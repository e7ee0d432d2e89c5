import { isIPv4, isIPv6 } from 'node:net';

/*
 * Which addresses count as public: the server fetches URLs that others choose (carrier media, webhooks,
 * integrations), and must not be made to reach itself, its network or the cloud's metadata service
 * through them (docs/media.md#fetching-urls). Everything that is not plainly a public unicast address is
 * refused: IPv4's special-purpose ranges (RFC 6890 and its updates), and in IPv6 anything outside global
 * unicast 2000::/3 plus the special blocks inside it. IPv6 forms that carry an IPv4 address (mapped
 * ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 */

interface Range {
  base: bigint;
  prefix: number;
  name: string;
}

const ipv4Ranges: readonly Range[] = [
  range4('0.0.0.0', 8, 'unspecified'),
  range4('10.0.0.0', 8, 'private'),
  range4('100.64.0.0', 10, 'shared address space (carrier-grade NAT)'),
  range4('127.0.0.0', 8, 'loopback'),
  range4('169.254.0.0', 16, 'link-local'),
  range4('172.16.0.0', 12, 'private'),
  range4('192.0.0.0', 24, 'reserved'),
  range4('192.0.2.0', 24, 'documentation'),
  range4('192.88.99.0', 24, 'reserved'),
  range4('192.168.0.0', 16, 'private'),
  range4('198.18.0.0', 15, 'reserved'),
  range4('198.51.100.0', 24, 'documentation'),
  range4('203.0.113.0', 24, 'documentation'),
  range4('224.0.0.0', 4, 'multicast'),
  // 240/4 holds the broadcast address 255.255.255.255 too.
  range4('240.0.0.0', 4, 'reserved'),
];

const ipv6Ranges: readonly Range[] = [
  range6('::', 128, 'unspecified'),
  range6('::1', 128, 'loopback'),
  // IPv4-compatible addresses (deprecated); the mapped, NAT64 and 6to4 forms are unwrapped before this list.
  range6('::', 96, 'reserved'),
  range6('64:ff9b:1::', 48, 'private'),
  range6('100::', 64, 'reserved'),
  range6('2001::', 23, 'reserved'),
  range6('2001:db8::', 32, 'documentation'),
  range6('3fff::', 20, 'documentation'),
  range6('5f00::', 16, 'reserved'),
  range6('fc00::', 7, 'private'),
  range6('fe80::', 10, 'link-local'),
  range6('fec0::', 10, 'private'),
  range6('ff00::', 8, 'multicast'),
];

const globalUnicast = range6('2000::', 3, 'global unicast');

function range4(address: string, prefix: number, name: string): Range {
  return { base: BigInt(ipv4ToNumber(address) ?? 0), prefix, name };
}

function range6(address: string, prefix: number, name: string): Range {
  return { base: ipv6ToBigInt(address) ?? 0n, prefix, name };
}

/** An IPv4 address in dotted-quad form as a number; null for anything else. */
export function ipv4ToNumber(address: string): number | null {
  if (!isIPv4(address)) return null;
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

/** An IPv6 address (zone id ignored, IPv4 tail allowed) as a 128-bit number; null for anything else. */
export function ipv6ToBigInt(address: string): bigint | null {
  const bare = address.split('%')[0] ?? '';
  if (!isIPv6(bare)) return null;
  let text = bare;
  const tailStart = text.lastIndexOf(':') + 1;
  const v4 = ipv4ToNumber(text.slice(tailStart));
  if (v4 !== null) text = `${text.slice(0, tailStart)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  const [head = '', tail] = text.split('::');
  const headWords = head === '' ? [] : head.split(':');
  const tailWords = tail === undefined || tail === '' ? [] : tail.split(':');
  const words = tail === undefined ? headWords : [...headWords, ...new Array<string>(8 - headWords.length - tailWords.length).fill('0'), ...tailWords];
  if (words.length !== 8) return null;
  return words.reduce((value, word) => (value << 16n) | BigInt(parseInt(word, 16)), 0n);
}

const inRange = (value: bigint, bits: number, r: Range): boolean => value >> BigInt(bits - r.prefix) === r.base >> BigInt(bits - r.prefix);

/** Whether `address` lies in `base/prefix` (both of one family); false across families. */
export function addressInCidr(address: string, base: string, prefix: number): boolean {
  const v4 = ipv4ToNumber(address);
  const base4 = ipv4ToNumber(base);
  if (v4 !== null && base4 !== null) return inRange(BigInt(v4), 32, { base: BigInt(base4), prefix, name: '' });
  const v6 = ipv6ToBigInt(address);
  const base6 = ipv6ToBigInt(base);
  if (v6 !== null && base6 !== null) return inRange(v6, 128, { base: base6, prefix, name: '' });
  return false;
}

function ipv4Range(value: number): string | null {
  return ipv4Ranges.find((r) => inRange(BigInt(value), 32, r))?.name ?? null;
}

/** The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4), if it is one of those forms. */
function embeddedIpv4(value: bigint): number | null {
  if (value >> 32n === 0xffffn) return Number(value & 0xffffffffn);
  if (value >> 32n === 0x64ff9b0000000000000000n) return Number(value & 0xffffffffn);
  if (value >> 112n === 0x2002n) return Number((value >> 80n) & 0xffffffffn);
  return null;
}

/**
 * The kind of non-public address `address` is ('loopback', 'private', 'link-local' ...), or null when it
 * is a public address. Anything that is not an IP address at all answers 'not an IP address'.
 */
export function nonPublicRange(address: string): string | null {
  const v4 = ipv4ToNumber(address);
  if (v4 !== null) return ipv4Range(v4);
  const v6 = ipv6ToBigInt(address);
  if (v6 === null) return 'not an IP address';
  const embedded = embeddedIpv4(v6);
  if (embedded !== null) return ipv4Range(embedded);
  const special = ipv6Ranges.find((r) => inRange(v6, 128, r));
  if (special) return special.name;
  return inRange(v6, 128, globalUnicast) ? null : 'reserved';
}
