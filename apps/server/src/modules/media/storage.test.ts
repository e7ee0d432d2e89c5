import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskMediaStorage } from './diskStorage.js';
import { S3MediaStorage } from './s3Storage.js';
import { assertMediaKey, mediaKey, type MediaStorage } from './storage.js';
import { startTestS3Peer, type TestS3Peer } from './test/testS3Peer.js';

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

    it('lists objects in key order, after a key, under a prefix, at most a limit', async () => {
      const storage = make();
      // Accounts that sort after anything the other tests store.
      const a = 'ffffffff-0000-7000-8000-000000000001';
      const b = 'ffffffff-0000-7000-8000-000000000002';
      const written = Date.now();
      for (const k of [mediaKey(b, 'f2'), mediaKey(a, 'f1'), mediaKey(a, 'f3'), mediaKey(b, 'f1')]) {
        await storage.put(k, Buffer.from('x'), 'image/png');
      }
      const keys = async (options: Parameters<MediaStorage['list']>[0]) => (await storage.list(options)).map((o) => o.key);
      expect(await keys({ after: 'fffffffe', limit: 10 })).toEqual([`${a}/f1`, `${a}/f3`, `${b}/f1`, `${b}/f2`]);
      expect(await keys({ after: 'fffffffe', limit: 3 })).toEqual([`${a}/f1`, `${a}/f3`, `${b}/f1`]);
      expect(await keys({ after: `${a}/f3`, limit: 10 })).toEqual([`${b}/f1`, `${b}/f2`]);
      expect(await keys({ prefix: `${b}/`, limit: 10 })).toEqual([`${b}/f1`, `${b}/f2`]);
      expect(await keys({ prefix: `${a}/f3`, limit: 1 })).toEqual([`${a}/f3`]);
      expect(await keys({ prefix: `${a}/f2`, limit: 1 })).toEqual([]);
      for (const object of await storage.list({ prefix: `${a}/`, limit: 10 })) {
        // S3 keeps whole seconds.
        expect(Math.abs(object.modifiedAt.getTime() - written)).toBeLessThan(5_000);
      }
      for (const k of await keys({ after: 'fffffffe', limit: 10 })) await storage.delete(k);
      expect(await keys({ after: 'fffffffe', limit: 10 })).toEqual([]);
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

describe('disk storage listing', () => {
  it('lists account files only, and removes an account folder with its last file', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-media-list-'));
    try {
      const storage = new DiskMediaStorage(root);
      await storage.put(key, Buffer.from('abc'), 'image/png');
      const [account] = key.split('/');
      // Not written by Parley: never listed, so never taken for media.
      await fs.writeFile(path.join(root, 'notes.txt'), 'x');
      await fs.mkdir(path.join(root, account ?? '', 'nested'));
      await fs.mkdir(path.join(root, '.hidden'));
      await fs.writeFile(path.join(root, '.hidden', 'file'), 'x');
      expect((await storage.list({ limit: 10 })).map((o) => o.key)).toEqual([key]);
      await fs.rmdir(path.join(root, account ?? '', 'nested'));
      await storage.delete(key);
      expect(await fs.readdir(root)).toEqual(expect.not.arrayContaining([account]));
      // The next file of the account makes its folder again.
      await storage.put(key, Buffer.from('again'), 'image/png');
      expect((await storage.list({ limit: 10 })).map((o) => o.key)).toEqual([key]);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
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
