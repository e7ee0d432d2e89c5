import fs from 'node:fs/promises';

// USER_HZ, the unit of /proc/<pid>/stat times; 100 on every mainstream Linux build.
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, in ms) a process has used so far; null where there is no /proc. */
export async function processCpuMs(pid: number): Promise<number | null> {
  let stat: string;
  try {
    stat = await fs.readFile(`/proc/${String(pid)}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name in parentheses may hold spaces; the fields after it are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
}
