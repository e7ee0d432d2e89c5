import { FEATURE_BOARD_OPERATORS_ONLY_MESSAGE } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { isOperator } from '../identity/index.js';

/** Status changes, edits and removals are the deployment's operators' (docs/featureRequests.md). */
export async function requireOperator(q: Queryable, userId: string): Promise<void> {
  if (!(await isOperator(q, userId))) throw new AppError(403, 'forbidden', FEATURE_BOARD_OPERATORS_ONLY_MESSAGE);
}
