import fs from 'node:fs/promises';
import path from 'node:path';
import { resultsDir } from './paths.js';

/** Writes pretty JSON through a temporary file, so an interrupted run never leaves half a result. */
export async function writeResult(fileName: string, result: object): Promise<string> {
  await fs.mkdir(resultsDir, { recursive: true });
  const file = path.join(resultsDir, fileName);
  const partial = `${file}.tmp`;
  await fs.writeFile(partial, `${JSON.stringify(result, null, 2)}\n`);
  await fs.rename(partial, file);
  return file;
}
