import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DiskMediaStorage } from '../diskStorage.js';
import { S3MediaStorage } from '../s3Storage.js';
import type { MediaServices } from '../services.js';
import type { MediaStorage } from '../storage.js';
import { startTestS3Peer } from './testS3Peer.js';

/* Test support: each kind of media storage, empty, of the test's own. */

export const testStorageKinds = ['disk', 's3'] as const;
export type TestStorageKind = (typeof testStorageKinds)[number];

export interface TestStorage {
  storage: MediaStorage;
  /** The directory of the disk storage; null for S3. */
  dir: string | null;
  close(): Promise<void>;
}

/** A directory of its own, or a bucket on a local S3 peer of its own. */
export async function openTestStorage(kind: TestStorageKind): Promise<TestStorage> {
  if (kind === 'disk') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-media-'));
    return { storage: new DiskMediaStorage(dir), dir, close: () => fs.rm(dir, { recursive: true, force: true }) };
  }
  const peer = await startTestS3Peer();
  const storage = new S3MediaStorage(peer.config);
  return {
    storage,
    dir: null,
    async close() {
      storage.destroy();
      await peer.close();
    },
  };
}

/** Media services on the storage, without a signing key (enough to store files). */
export const testMediaServices = (storage: MediaStorage, publicUrl = 'https://parley.example.test'): MediaServices => ({
  publicUrl,
  storage,
  signer: () => Promise.resolve(null),
});

/** Whether bytes are stored under the key. */
export async function isStored(storage: MediaStorage, key: string): Promise<boolean> {
  const stream = await storage.get(key);
  stream?.destroy();
  return stream !== null;
}
