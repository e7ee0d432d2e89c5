import net from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { TrustProxy } from '../config.js';

/**
 * Whether an address is this machine's loopback: 127.0.0.0/8, ::1, or either written as IPv4-mapped IPv6
 * (::ffff:127.0.0.1), which is how a dual-stack socket reports an IPv4 peer.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (bare === '::1') return true;
  const v4 = bare.toLowerCase().startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return net.isIPv4(v4) && v4.split('.')[0] === '127';
}

/** Headers a reverse proxy adds when it passes a request on. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

/**
 * Whether the request came from this machine itself: judged by the socket's own peer address, never by a
 * forwarded header. A request a reverse proxy passed on also comes from loopback when the proxy runs on
 * this machine, so one that carries a proxy's forwarding headers does not count (docs/security.md).
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY: nothing, the listed proxies, or a number of hops (as a function:
 * Fastify trusts no forwarded host or scheme for a bare count).
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/**
 * Hands code that reads X-Forwarded-* itself (the embedded issuer: Koa with `proxy` on) the client's
 * scheme, host and address as Fastify judged them under TRUST_PROXY: what a client wrote in those headers
 * counts only when a trusted proxy passed the request on.
 */
export function rewriteForwardedHeaders(request: FastifyRequest): void {
  const { protocol, host, ip } = request;
  const headers = request.raw.headers;
  for (const name of [...FORWARDING_HEADERS, 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-prefix']) Reflect.deleteProperty(headers, name);
  headers['x-forwarded-proto'] = protocol;
  headers['x-forwarded-host'] = host;
  headers['x-forwarded-for'] = ip;
}
