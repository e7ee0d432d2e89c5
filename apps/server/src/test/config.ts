import { loadConfig, type Config } from '../config.js';

/** A config as the server would parse it, with test overrides. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env }, [], process.cwd(), '0.0.0-test');
}
