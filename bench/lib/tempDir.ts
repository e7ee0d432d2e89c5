import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Scope } from './scope.js';

/** A fresh directory, removed with everything in it when the scope closes. */
export async function tempDir(prefix: string, scope: Scope): Promise<string> {
  scope.signal.throwIfAborted();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  scope.defer(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}
