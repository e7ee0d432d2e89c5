import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SecretsConfig } from '../../platform/config.js';
import { sameSecretText } from '../../platform/secrets/sameSecretText.js';

export type ReportLinkCheck = 'valid' | 'expired' | 'invalid';

/** The public path of a report's e-mailed link (the signature stands in for a token). */
export const reportFilePath = (id: string): string => `/v1/reports/files/${id}`;

/**
 * Signs and checks the e-mailed links of reports: `{PUBLIC_URL}/v1/reports/files/{id}?expires={unix
 * seconds}&sig={base64url HMAC-SHA256}`. The HMAC covers the id and the expiry, so neither can be changed.
 */
export class ReportLinkSigner {
  constructor(
    private readonly publicUrl: string,
    private readonly key: Buffer,
  ) {}

  private mac(id: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`report:${id}:${String(expires)}`).digest();
  }

  link(id: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.publicUrl}${reportFilePath(id)}?expires=${String(expires)}&sig=${this.mac(id, expires).toString('base64url')}`;
  }

  check(id: string, expires: string | undefined, sig: string | undefined, now: Date): ReportLinkCheck {
    if (expires === undefined || sig === undefined || !/^\d{1,15}$/.test(expires)) return 'invalid';
    const seconds = Number(expires);
    if (!sameSecretText(sig, this.mac(id, seconds).toString('base64url'))) return 'invalid';
    return seconds * 1000 <= now.getTime() ? 'expired' : 'valid';
  }
}

const KEY_FILE = 'signing.key';

/** The key in `dir` (made once, exclusively, so processes sharing the directory agree on it). */
async function keyFileIn(dir: string): Promise<Buffer> {
  const file = path.join(dir, KEY_FILE);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await fs.writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another process may have made the file an instant ago and still be writing it.
  for (let attempt = 0; ; attempt++) {
    const key = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
    if (key.length === 32) return key;
    if (attempt >= 5) throw new Error(`${file} does not hold a 32-byte key; remove it to make a new one`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The signing key: derived from SECRETS_KEY when it is set (every process of the deployment has it), else a
 * key kept beside the report files (DATA_DIR/reports/signing.key), which every process serving them shares
 * anyway. Never the secrets key itself, so a link says nothing about it.
 */
export async function reportSigningKey(secrets: SecretsConfig, dir: string): Promise<Buffer> {
  const base = secrets.key ?? (await keyFileIn(dir));
  return createHmac('sha256', base).update('parley report link signing v1').digest();
}
