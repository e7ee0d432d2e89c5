import { consoleNote } from './build/consoleNote.js';
import { ConfigError, loadConfig } from './platform/config.js';
import { applicationNameOf, openDatabase } from './platform/db/client.js';
import { DataDirLockedError } from './platform/db/dataDirLock.js';
import { createLogger } from './platform/logger.js';
import { applyWorkerNice } from './platform/processPriority.js';
import { readVersion } from './platform/version.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, process.argv.slice(2), process.cwd(), readVersion());
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Parley cannot start. ${error.message}\nSee docs/configuration.md.\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config);
  // Before start-up, so the threads the server starts inherit it.
  applyWorkerNice(config, log);
  let server;
  try {
    // The embedded database starts in a thread of its own (seconds) while the server's modules load.
    const opening = openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolMax: config.databasePoolMax,
      applicationName: applicationNameOf(config.services),
    });
    opening.catch(() => undefined);
    const { startServer } = await import('./app/server.js');
    server = await startServer(config, log, { database: await opening });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`Parley cannot start. ${error.message}\n`);
      log.flush();
      process.exit(1);
    }
    log.fatal({ err: error }, 'start-up failed');
    log.flush();
    process.exit(1);
  }
  if (server.url !== null) {
    log.info({ url: server.url }, `Parley is ready at ${server.url}`);
    consoleNote(`Ready at ${server.url}`);
  } else {
    log.info({ services: config.services }, 'Parley is running');
    consoleNote(`Running (${config.services.join(', ')})`);
  }

  const shutdown = (signal: string): void => {
    log.info({ signal }, 'signal received');
    const timer = setTimeout(() => {
      log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5000);
    timer.unref();
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.once('SIGINT', () => {
    shutdown('SIGINT');
  });
}

await main();
