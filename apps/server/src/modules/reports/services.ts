import type { Config } from '../../platform/config.js';
import { reportsDir } from './files.js';
import { ReportLinkSigner, reportSigningKey } from './signing.js';

/** What the report routes and the report job share: where the files are and the link signer. */
export interface ReportServices {
  readonly dir: string;
  signer(): Promise<ReportLinkSigner>;
}

export function createReportServices(config: Pick<Config, 'dataDir' | 'publicUrl' | 'secrets'>): ReportServices {
  const dir = reportsDir(config.dataDir);
  let made: ReportLinkSigner | null = null;
  return {
    dir,
    async signer() {
      // Two first calls may both read the key: the same key, so either signer will do.
      made ??= new ReportLinkSigner(config.publicUrl, await reportSigningKey(config.secrets, dir));
      return made;
    },
  };
}
