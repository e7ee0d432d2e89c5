import fs from 'node:fs';

/** The product version, from the root package.json. */
export function readVersion(): string {
  try {
    const url = new URL('../../../../package.json', import.meta.url);
    const pkg = JSON.parse(fs.readFileSync(url, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
