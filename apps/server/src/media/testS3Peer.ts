import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageConfig } from './s3Storage.js';

export interface TestS3Peer {
  config: S3StorageConfig;
  close(): Promise<void>;
}

/** A local S3 server (s3rver speaks the S3 REST protocol; it knows one access key) with one bucket, on a free port. */
export async function startTestS3Peer(bucket = 'parley-media'): Promise<TestS3Peer> {
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
