import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertMediaKey, isMediaKey, type MediaStorage, type StoredObject } from './storage.js';

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Names in a directory (none when it is missing), of one kind, sorted as the keys they start sort. */
async function names(dir: string, kind: 'file' | 'folder'): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const wanted = entries.filter((e) => (kind === 'file' ? e.isFile() : e.isDirectory()) && isMediaKey(e.name)).map((e) => e.name);
  // A folder's keys start `{name}/`: sorting by that keeps the listing in key order ('a/' sorts after 'a-b/').
  const sortKey = (name: string): string => (kind === 'folder' ? `${name}/` : name);
  return wanted.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
}

/** Media under a directory (DATA_DIR/media): the embedded default, for one process or a shared volume. */
export class DiskMediaStorage implements MediaStorage {
  readonly kind = 'disk' as const;

  constructor(private readonly dir: string) {}

  private pathOf(key: string): string {
    assertMediaKey(key);
    return path.join(this.dir, ...key.split('/'));
  }

  async put(key: string, body: Buffer, _contentType: string): Promise<void> {
    const file = this.pathOf(key);
    // Written beside and renamed: a reader never sees half a file, a crash leaves no partial one under the key.
    const temporary = `${file}.${randomUUID()}.tmp`;
    for (let attempt = 1; ; attempt += 1) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      try {
        await fs.writeFile(temporary, body, { mode: 0o600 });
        break;
      } catch (error) {
        // delete() may have removed the emptied folder between mkdir and the write: make it again.
        if (errorCode(error) !== 'ENOENT' || attempt === 3) throw error;
      }
    }
    try {
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.pathOf(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    // Opened first so a missing file answers null here instead of failing the stream later.
    return handle.createReadStream({ autoClose: true });
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true });
    if (!key.includes('/')) return;
    // An emptied account folder goes too (a removed account leaves nothing behind); a folder still holding
    // files refuses, which is the answer wanted.
    await fs.rmdir(path.dirname(file)).catch((error: unknown) => {
      if (!['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errorCode(error) ?? '')) throw error;
    });
  }

  /** Keys of the shape `{folder}/{file}` (what mediaKey makes); anything else in the directory is not listed. */
  async list({ prefix = '', after = '', limit }: { prefix?: string; after?: string; limit: number }): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    for (const folder of await names(this.dir, 'folder')) {
      const start = `${folder}/`;
      if (!start.startsWith(prefix) && !prefix.startsWith(start)) continue;
      // Every key of the folder sorts before `after`.
      if (after.slice(0, start.length) > start) continue;
      for (const file of await names(path.join(this.dir, folder), 'file')) {
        const key = `${start}${file}`;
        if (key <= after || !key.startsWith(prefix)) continue;
        try {
          const stat = await fs.stat(path.join(this.dir, folder, file));
          found.push({ key, modifiedAt: stat.mtime });
        } catch (error) {
          // Deleted since the folder was read.
          if (errorCode(error) !== 'ENOENT') throw error;
          continue;
        }
        if (found.length >= limit) return found;
      }
    }
    return found;
  }
}
