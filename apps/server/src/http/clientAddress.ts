import net from 'node:net';
import type { FastifyRequest } from 'fastify';

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
