import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Parley process (pid ${holderPid}). ` +
        'The embedded database allows one process per data directory: stop that process first, ' +
        'choose another DATA_DIR, or run several processes on PostgreSQL with DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data directory for this process. Creating the lock file with O_EXCL is atomic, so of two
 * processes starting together exactly one wins; a lock left by a process that died is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'parley.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          if (readHolder(file) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder !== null && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      if (holder === process.pid) throw new DataDirLockedError(dataDir, holder);
      // Stale: its process is gone (or the file is half-written by a crash). Remove and retry.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${file}; remove it if no Parley process is running.`);
}
