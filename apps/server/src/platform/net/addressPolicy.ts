import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressAllowed, hostNameAllowed, type AllowedHosts } from './allowedHosts.js';
import { GuardedFetchError } from './guardedFetchError.js';
import { nonPublicRange } from './ipRanges.js';

/** Every address a name resolves to (dns.lookup by default: the system's resolver, /etc/hosts included). */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Why `host` may not be reached at `address`, or null when it may: a public address, an address in an
 * allowed block, or any address of an allowed host name.
 */
export function addressRefusal(allowed: AllowedHosts, host: string, address: string): string | null {
  if (hostNameAllowed(allowed, host) || addressAllowed(allowed, address)) return null;
  const range = nonPublicRange(address);
  if (range === null) return null;
  return host === address ? `${address} is not a public address (${range})` : `${host} resolves to ${address}, which is not a public address (${range})`;
}

/**
 * The `lookup` a connection is made with: the name is resolved and EVERY address it has is checked, at
 * connect time, so a name that answers a public address to a first look and a private one to the
 * connection (DNS rebinding) cannot win. A refusal fails the connection with a GuardedFetchError.
 */
export function guardedLookup(allowed: AllowedHosts, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        for (const { address } of wanted) {
          const refusal = addressRefusal(allowed, hostname, address);
          if (refusal !== null) {
            callback(new GuardedFetchError('blocked', refusal), '', 0);
            return;
          }
        }
        if (options.all === true) callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, wanted[0]?.address ?? '', wanted[0]?.family ?? 4);
      })
      .catch((error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), '', 0);
      });
  };
}
