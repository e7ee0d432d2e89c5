import { Resolver } from 'node:dns/promises';
import type { LinksConfig } from '../../platform/config.js';

export interface DnsRecord {
  type: 'A' | 'CNAME';
  name: string;
  value: string;
}

/**
 * A root domain (two labels, acme.com) cannot hold a CNAME beside its other records, so it points A
 * records at the configured addresses; a subdomain (go.acme.com) names the CNAME target (docs/links.md).
 */
export const isRootDomain = (domain: string): boolean => domain.split('.').length === 2;

export function dnsRecordsFor(domain: string, config: LinksConfig): DnsRecord[] {
  if (isRootDomain(domain)) return config.aRecords.map((value) => ({ type: 'A', name: domain, value }));
  return [{ type: 'CNAME', name: domain, value: config.cname }];
}

const trimDot = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** Whether a look-up failed because the name has no such records (as opposed to the resolver failing). */
const answers = async <T>(lookup: Promise<T[]>): Promise<T[]> => {
  try {
    return await lookup;
  } catch {
    return [];
  }
};

/**
 * Whether the domain's DNS points at this deployment, asked through the configured resolver: a CNAME to
 * the target, or A records that are all among the configured addresses. Either form passes for any
 * domain: a DNS host that flattens a root CNAME answers with A records.
 */
export async function pointsHere(domain: string, config: LinksConfig): Promise<boolean> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (config.resolver !== null) resolver.setServers([config.resolver]);
  const cnames = await answers(resolver.resolveCname(domain));
  if (cnames.some((name) => trimDot(name) === config.cname)) return true;
  if (cnames.length > 0) return false;
  const addresses = await answers(resolver.resolve4(domain));
  return addresses.length > 0 && addresses.every((address) => config.aRecords.includes(address));
}
