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

/** The lock files this process holds: the same pid in a file this process does not hold is a former life. */
const heldHere = new Set<string>();

interface Holder {
  pid: number;
  /** When the process started (Linux: clock ticks after boot, /proc/<pid>/stat); null where unknown. */
  startedAt: string | null;
}

/** The start time of a process, which with its pid names it for good: pids are reused, this pair is not. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // The command name (2nd field) is in parentheses and may hold spaces: count fields after its ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
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

/** Whether a live process of that pid runs Node (so may be Parley); true where the system does not say. */
function mayBeParley(pid: number): boolean {
  try {
    const args = fs.readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0');
    return path.basename(args[0] ?? '').startsWith('node') || args.some((arg) => arg.includes('parley'));
  } catch {
    return true;
  }
}

function readHolder(file: string): Holder | null {
  try {
    const [pidText, startedAt] = fs.readFileSync(file, 'utf8').trim().split(/\s+/);
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, startedAt: startedAt ?? null } : null;
  } catch {
    return null;
  }
}

/**
 * Whether the process that wrote the lock still runs. A lock must not outlive its holder, whose pid a later
 * process may get: in a container, a restarted Parley is pid 1 again and finds its own pid in the file. So
 * the holder is the process with that pid AND that start time (Linux), and, without a start time to
 * compare, a live process that runs Node.
 */
function holderRuns(file: string, holder: Holder): boolean {
  if (holder.pid === process.pid) return heldHere.has(file);
  if (!isAlive(holder.pid)) return false;
  const startedAt = startTimeOf(holder.pid);
  if (holder.startedAt !== null && startedAt !== null) return holder.startedAt === startedAt;
  return mayBeParley(holder.pid);
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
      const startedAt = startTimeOf(process.pid);
      fs.writeSync(fd, `${String(process.pid)}${startedAt === null ? '' : ` ${startedAt}`}\n`);
      fs.closeSync(fd);
      heldHere.add(file);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          heldHere.delete(file);
          if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder !== null && holderRuns(file, holder)) throw new DataDirLockedError(dataDir, holder.pid);
      // Stale: its process is gone (or the file is half-written by a crash). Remove and retry.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${file}; remove it if no Parley process is running.`);
}
