import type { CustomDomain } from '@parley/shared';
import type { LinksConfig } from '../../platform/config.js';
import type { LinkDomainRow } from '../../platform/db/schema/index.js';
import { dnsRecordsFor } from './dnsCheck.js';

export function presentDomain(row: LinkDomainRow, config: LinksConfig): CustomDomain {
  return {
    id: row.id,
    domain: row.domain,
    renewAt: row.renewAt?.toISOString() ?? null,
    shared: false,
    records: dnsRecordsFor(row.domain, config),
  };
}
