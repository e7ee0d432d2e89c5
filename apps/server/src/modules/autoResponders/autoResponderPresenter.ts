import type { AutoResponder } from '@parley/shared';
import type { AutoResponderRow } from '../../platform/db/schema/index.js';

export function presentAutoResponder(row: AutoResponderRow): AutoResponder {
  return {
    id: row.id,
    match: row.match,
    response: row.response,
    advanced: row.advanced,
    created: { at: row.createdAt.toISOString() },
    updated: { at: row.updatedAt.toISOString() },
  };
}
