import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../s3Storage.js';

export interface TestS3Peer {
  config: S3StorageConfig;
  close(): Promise<void>;
}

/**
 * s3rver makes the continuation token of a listing cut short (ListObjectsV2, IsTruncated) with single DES,
 * which OpenSSL 3 no longer offers, and answers 500. Triple DES with the one 8-byte key three times is the
 * same cipher, so 'des' is served by it; every other algorithm goes through untouched.
 */
function offerSingleDes(): void {
  const cipher = crypto.createCipheriv;
  const decipher = crypto.createDecipheriv;
  if ((cipher as { desShim?: true }).desShim) return;
  const tripled = (key: crypto.CipherKey): crypto.CipherKey => (Buffer.isBuffer(key) ? Buffer.concat([key, key, key]) : key);
  const shimCipher = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: never) =>
    algorithm === 'des' ? cipher('des-ede3-cbc', tripled(key), iv) : cipher(algorithm, key, iv, options)) as typeof crypto.createCipheriv;
  const shimDecipher = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: never) =>
    algorithm === 'des' ? decipher('des-ede3-cbc', tripled(key), iv) : decipher(algorithm, key, iv, options)) as typeof crypto.createDecipheriv;
  Object.assign(shimCipher, { desShim: true });
  crypto.createCipheriv = shimCipher;
  crypto.createDecipheriv = shimDecipher;
}

/** A local S3 server (s3rver speaks the S3 REST protocol; it knows one access key) with one bucket, on a free port. */
export async function startTestS3Peer(bucket = 'parley-media'): Promise<TestS3Peer> {
  offerSingleDes();
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  return {
    config: {
      kind: 's3',
      bucket,
      endpoint: `http://127.0.0.1:${String(address.port)}`,
      region: 'us-east-1',
      // s3rver's fixed key pair; it refuses any other access key id.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
