import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('./packages/shared/src/index.ts', import.meta.url));
const sdk = fileURLToPath(new URL('./packages/sdk/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@parley/shared': shared, '@parley/sdk': sdk } },
  test: {
    // Vitest's default is one worker less than the cores: one on the 2-core CI machine. A test file mostly
    // waits (on PostgreSQL, on PGlite's thread, on a process or a socket), and a worker spends a good part of
    // its time between files (loading the next one): with two workers a run kept 1.3 files and 1.5 cores
    // busy on average, with three 1.9 files and 1.65 cores, 6% sooner (docs/testing.md).
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          globalSetup: ['apps/server/src/test/globalSetup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file would otherwise load the whole server's modules again (a third of a run's time went to
          // imports); the files share no module state that one could leave for another (docs/testing.md).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The Zapier app's tests run it against an in-process server, so they take the server's setup.
          name: 'zapier',
          include: ['packages/zapier-app/src/**/*.test.ts'],
          globalSetup: ['apps/server/src/test/globalSetup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'node' },
      },
    ],
  },
});
