import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from 'jose';

/*
 * For tests: a push service (RFC 8030) on 127.0.0.1 that takes what Parley sends as a real one does,
 * and a browser's side of a subscription (RFC 8291) that decrypts it. Nothing here trusts the sender:
 * the VAPID token is verified with the public key (RFC 8292) and the body decrypted from scratch.
 */

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface LocalPushService {
  /** http://127.0.0.1:<port> */
  origin: string;
  received: ReceivedPush[];
  /** Answers pushes to this path with the status from now on (201 otherwise). */
  answer(path: string, status: number, delayMs?: number): void;
  /** Resolves once `count` pushes arrived, or rejects after the timeout. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, { status: number; delayMs: number }>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      const { status, delayMs } = answers.get(path) ?? { status: 201, delayMs: 0 };
      setTimeout(() => {
        if (!response.destroyed) response.writeHead(status).end(status >= 400 ? 'refused by the test push service' : '');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    received,
    answer(path, status, delayMs = 0) {
      answers.set(path, { status, delayMs });
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${String(count)} pushes, got ${String(received.length)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

/** A browser's subscription: its P-256 key pair and auth secret, made as a browser makes them. */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The plaintext of an aes128gcm push body (RFC 8188 with the RFC 8291 key schedule). */
  decrypt(body: Buffer): string;
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = crypto.createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
    decrypt(body) {
      const salt = body.subarray(0, 16);
      const recordSize = body.readUInt32BE(16);
      const idLength = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + idLength);
      const record = body.subarray(21 + idLength);
      if (idLength !== 65 || record.length > recordSize) throw new Error('not a single aes128gcm record with the sender key as key id');
      const hkdf = (ikm: Buffer, hkdfSalt: Buffer, info: Buffer, length: number) =>
        Buffer.from(crypto.hkdfSync('sha256', ikm, hkdfSalt, info, length));
      const shared = ecdh.computeSecret(senderKey);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), publicKey, senderKey]);
      const ikm = hkdf(shared, auth, keyInfo, 32);
      const key = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
      const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
      const decipher = crypto.createDecipheriv('aes-128-gcm', key, nonce);
      decipher.setAuthTag(record.subarray(record.length - 16));
      const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end -= 1;
      if (padded[end] !== 2) throw new Error('the last record lacks its 0x02 delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 token signed by that key, for the
 * push service's origin, not expired and at most 24 hours long (RFC 8292 §2). Answers its claims and key.
 */
export async function verifyVapid(authorization: string | undefined, endpoint: string): Promise<{ claims: JWTPayload; publicKey: string }> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${String(authorization)}`);
  const [token, publicKey] = [match[1], match[2]];
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = await importJWK(
    { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    'ES256',
  );
  if (decodeProtectedHeader(token).alg !== 'ES256') throw new Error('the VAPID token is not ES256');
  const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: new URL(endpoint).origin });
  const now = Math.floor(Date.now() / 1000);
  if (payload.exp === undefined || payload.exp <= now || payload.exp > now + 24 * 60 * 60) throw new Error('the VAPID token expiry is not within 24 hours');
  return { claims: payload, publicKey };
}
