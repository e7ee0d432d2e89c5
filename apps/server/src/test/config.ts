import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../platform/config.js';

let scratchDataDir: string | null = null;

/**
 * A data directory of the test process's own: files a test makes (the embedded secrets key, media on disk)
 * must never land in the checkout's ./data, where a developer's real data lives.
 */
const testDataDir = (): string => (scratchDataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-data-')));

/**
 * A config as the server would parse it, with test overrides. The API's rate limits are off unless a test
 * sets them: a test file calls the API far faster than any client, all from one address.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig(
    { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: testDataDir(), API_RATE_LIMIT: '0', API_RATE_LIMIT_PER_ADDRESS: '0', ...env },
    [],
    process.cwd(),
    '0.0.0-test',
  );
}
