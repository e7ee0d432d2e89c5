import type { Readiness } from '@parley/shared';
import { diskHasRoom, MIN_FREE_DISK_BYTES, probeWrites } from '../../platform/db/readiness.js';
import type { AppContext } from '../../platform/context.js';

/**
 * Each check of readiness: the database answers and takes writes, the directories where files are kept
 * have room, the job queue answers. A failing check is logged with its cause and answered as failing.
 */
export async function checkReadiness(
  ctx: Pick<AppContext, 'database' | 'jobs' | 'log'>,
  localDirs: readonly string[],
): Promise<Readiness['checks']> {
  const checks: Readiness['checks'] = { database: 'ok', writes: 'ok', disk: 'ok', queue: 'ok' };
  try {
    await ctx.database.ping();
  } catch (error) {
    ctx.log.warn({ err: error }, 'readiness: database check failed');
    checks.database = 'failing';
  }
  try {
    await probeWrites(ctx.database.db);
  } catch (error) {
    ctx.log.warn({ err: error }, 'readiness: the database takes no writes');
    checks.writes = 'failing';
  }
  try {
    if (!(await diskHasRoom(localDirs))) checks.disk = 'low';
  } catch (error) {
    ctx.log.warn({ err: error }, 'readiness: disk space unknown');
    checks.disk = 'low';
  }
  if (checks.disk === 'low') ctx.log.warn({ dirs: localDirs, minFreeBytes: MIN_FREE_DISK_BYTES }, 'readiness: too little free space where files are kept');
  if (!ctx.jobs.isStarted) {
    checks.queue = 'not_started';
  } else {
    try {
      await ctx.jobs.check();
    } catch (error) {
      ctx.log.warn({ err: error }, 'readiness: queue check failed');
      checks.queue = 'failing';
    }
  }
  return checks;
}
