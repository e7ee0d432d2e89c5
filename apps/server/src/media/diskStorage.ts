import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertMediaKey, type MediaStorage } from './storage.js';

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
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed: a reader never sees half a file, a crash leaves no partial one under the key.
    const temporary = `${file}.${randomUUID()}.tmp`;
    try {
      await fs.writeFile(temporary, body, { mode: 0o600 });
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
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // Opened first so a missing file answers null here instead of failing the stream later.
    return handle.createReadStream({ autoClose: true });
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
