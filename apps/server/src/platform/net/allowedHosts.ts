import { isIP } from 'node:net';
import { addressInCidr } from './ipRanges.js';

/**
 * Hosts the operator lets the server fetch from although they are not public (a carrier or a CRM inside
 * a private network): FETCH_ALLOWED_HOSTS. An entry is
 * - a host name (`crm.corp.example`): that name may resolve to any address;
 * - `*.corp.example`: any name below corp.example (not corp.example itself);
 * - an IP address (`10.1.2.3`, `fd00::1`) or a CIDR block (`10.1.0.0/16`, `fd00::/8`): a URL may reach
 *   these addresses, whatever name it uses.
 */
export interface AllowedHosts {
  readonly names: ReadonlySet<string>;
  /** Suffixes of `*.` entries, with their leading dot: `.corp.example`. */
  readonly suffixes: readonly string[];
  readonly cidrs: readonly { base: string; prefix: number }[];
}

const hostName = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host as compared: lower case, without a trailing dot or the brackets of an IPv6 literal. */
export const normalHost = (host: string): string => host.toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');

type Entry = { kind: 'name'; name: string } | { kind: 'suffix'; suffix: string } | { kind: 'cidr'; base: string; prefix: number };

/** One entry, normalised; null when it is none of the forms above. */
function parseEntry(text: string): Entry | null {
  const entry = normalHost(text.trim());
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family !== 0) {
    const max = family === 4 ? 32 : 128;
    const prefixText = slash === -1 ? String(max) : entry.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
    return { kind: 'cidr', base: address, prefix: Number(prefixText) };
  }
  if (entry.startsWith('*.') && hostName.test(entry.slice(2))) return { kind: 'suffix', suffix: entry.slice(1) };
  // A name made of digits and dots only would be read as an IPv4 address by URL parsers: refused.
  if (hostName.test(entry) && !/^[\d.]+$/.test(entry)) return { kind: 'name', name: entry };
  return null;
}

/** The entries that are not host names, `*.` names, IP addresses or CIDR blocks. */
export function invalidAllowedHostEntries(entries: readonly string[]): string[] {
  return entries.filter((e) => parseEntry(e) === null);
}

/** Parses the entries; throws on one that is not valid (check them with invalidAllowedHostEntries first). */
export function allowedHostsFrom(entries: readonly string[]): AllowedHosts {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const cidrs: { base: string; prefix: number }[] = [];
  for (const text of entries) {
    const entry = parseEntry(text);
    if (entry === null) throw new Error(`not a host name, IP address or CIDR block: ${text}`);
    if (entry.kind === 'name') names.add(entry.name);
    else if (entry.kind === 'suffix') suffixes.push(entry.suffix);
    else cidrs.push({ base: entry.base, prefix: entry.prefix });
  }
  return { names, suffixes, cidrs };
}

/** Both lists in one. */
export function mergeAllowedHosts(a: AllowedHosts, b: AllowedHosts): AllowedHosts {
  return { names: new Set([...a.names, ...b.names]), suffixes: [...a.suffixes, ...b.suffixes], cidrs: [...a.cidrs, ...b.cidrs] };
}

/** Whether the host name itself is allowed (then any address it resolves to is). */
export function hostNameAllowed(allowed: AllowedHosts, host: string): boolean {
  const name = normalHost(host);
  return allowed.names.has(name) || allowed.suffixes.some((suffix) => name.endsWith(suffix));
}

/** Whether the address lies in one of the allowed IP addresses or CIDR blocks. */
export function addressAllowed(allowed: AllowedHosts, address: string): boolean {
  return allowed.cidrs.some((c) => addressInCidr(address, c.base, c.prefix));
}
