import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskMediaStorage } from './diskStorage.js';
import { S3MediaStorage } from './s3Storage.js';
import { assertMediaKey, mediaKey, type MediaStorage } from './storage.js';
import { startTestS3Peer, type TestS3Peer } from './testS3Peer.js';

const read = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

const key = mediaKey('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c');

function behavesAsStorage(name: string, make: () => MediaStorage) {
  describe(name, () => {
    it('stores, streams back and deletes bytes', async () => {
      const storage = make();
      const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
      await storage.put(key, bytes, 'image/png');
      const stream = await storage.get(key);
      expect(stream).not.toBeNull();
      expect(await read(stream as Readable)).toEqual(bytes);
      await storage.put(key, Buffer.from('second'), 'image/png');
      expect((await read((await storage.get(key)) as Readable)).toString()).toBe('second');
      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
      // Deleting what is gone is fine.
      await storage.delete(key);
    });

    it('answers null for a key never stored', async () => {
      expect(await make().get(mediaKey('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'missing'))).toBeNull();
    });

    it('refuses keys that could leave the storage', async () => {
      await expect(make().put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow('not a media key');
      await expect(make().get('a/../../etc/passwd')).rejects.toThrow('not a media key');
    });
  });
}

describe('media keys', () => {
  it('takes account/file keys only', () => {
    expect(() => {
      assertMediaKey(key);
    }).not.toThrow();
    for (const bad of ['', '/abs', 'a//b', '..', 'a/..', 'a/b c', '.hidden']) {
      expect(() => {
        assertMediaKey(bad);
      }).toThrow();
    }
  });
});

let dir = '';
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-media-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

behavesAsStorage('disk storage', () => new DiskMediaStorage(dir));

describe('disk storage files', () => {
  it('keeps each account in its own folder and leaves no temporary file', async () => {
    await new DiskMediaStorage(dir).put(key, Buffer.from('abc'), 'image/png');
    const [account, file] = key.split('/');
    expect(await fs.readdir(path.join(dir, account ?? ''))).toEqual([file]);
  });
});

describe('S3 storage against s3rver', () => {
  let peer: TestS3Peer;
  beforeAll(async () => {
    peer = await startTestS3Peer();
  });
  afterAll(async () => {
    await peer.close();
  });
  behavesAsStorage('S3', () => new S3MediaStorage(peer.config));

  it('is refused with an unknown access key', async () => {
    const storage = new S3MediaStorage({ ...peer.config, credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'S3RVER' } });
    await expect(storage.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow();
  });

  it('says so when the bucket does not exist', async () => {
    const storage = new S3MediaStorage({ ...peer.config, bucket: 'no-such-bucket' });
    await expect(storage.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow();
  });
});
